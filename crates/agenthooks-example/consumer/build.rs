fn main() {
    agenthooks_build::fast_start();
}
