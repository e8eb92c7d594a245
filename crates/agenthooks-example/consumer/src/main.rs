//! README's hook without its `on_any` observer (so a `PostToolUse` has no handler): a deny gate
//! for destructive shell commands and a prompt context.
use agenthooks::prelude::*;

fn guard(_cx: &Context, gate: ToolGateEvent<'_>) -> ToolPreDecision {
    let tool = gate.tool();
    if tool.canonical == CanonicalTool::Shell && tool.command().is_some_and(|c| c.contains("rm -rf /")) {
        return deny("destructive command blocked by policy");
    }
    no_decision()
}

fn main() {
    let router = Router::new()
        .with_policy(Policy::default().fail_closed())
        .on_tool_gate(guard)
        .on_prompt_submitted(|_cx: &Context, _e: &PromptEvent| {
            accept_prompt().with_context("Run the tests before you say you are done.")
        });
    agenthooks::main(router); // handles `<bin> agenthooks run --provider=… --event=…`
}
