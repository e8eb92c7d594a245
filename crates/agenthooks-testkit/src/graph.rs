//! Circles in a directed graph, for the tests that keep a crate's files (or the workspace's
//! crates) in layers: the strongly connected components of more than one node.
//!
//! ```
//! use std::collections::{BTreeMap, BTreeSet};
//!
//! let g: BTreeMap<u8, BTreeSet<u8>> =
//!     [(1, BTreeSet::from([2])), (2, BTreeSet::from([1, 3]))].into_iter().collect();
//! assert_eq!(agenthooks_testkit::graph::circles(&g), vec![vec![1, 2]]);
//! ```

use std::collections::{BTreeMap, BTreeSet};

/// The strongly connected components with more than one node (Tarjan), each sorted, in sorted
/// order. A node that is only a target (no key of its own) has no outgoing edges.
#[must_use]
pub fn circles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct State<N> {
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on_stack: BTreeSet<N>,
        next: usize,
        out: Vec<Vec<N>>,
    }
    fn visit<N: Ord + Clone>(v: &N, edges: &BTreeMap<N, BTreeSet<N>>, st: &mut State<N>) {
        st.index.insert(v.clone(), st.next);
        st.low.insert(v.clone(), st.next);
        st.next += 1;
        st.stack.push(v.clone());
        st.on_stack.insert(v.clone());
        for w in edges.get(v).into_iter().flatten() {
            if !st.index.contains_key(w) {
                visit(w, edges, st);
                let lw = st.low[w];
                let lv = st.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if st.on_stack.contains(w) {
                let iw = st.index[w];
                let lv = st.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if st.low[v] == st.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = st.stack.pop() {
                st.on_stack.remove(&w);
                let done = w == *v;
                comp.push(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                st.out.push(comp);
            }
        }
    }
    let mut st = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !st.index.contains_key(v) {
            visit(v, edges, &mut st);
        }
    }
    st.out.sort();
    st.out
}

#[cfg(test)]
mod tests {
    use super::circles;
    use std::collections::{BTreeMap, BTreeSet};

    /// The graph of `from -> to` arrows.
    fn graph(arrows: &[(u8, u8)]) -> BTreeMap<u8, BTreeSet<u8>> {
        let mut g = BTreeMap::<u8, BTreeSet<u8>>::new();
        for &(from, to) in arrows {
            g.entry(from).or_default().insert(to);
        }
        g
    }

    #[test]
    fn every_component_once_and_no_tail() {
        let g = graph(&[(3, 1), (1, 2), (2, 3), (3, 4), (4, 5), (7, 6), (6, 7), (5, 9)]);
        assert_eq!(circles(&g), vec![vec![1, 2, 3], vec![6, 7]]);
        assert!(circles(&graph(&[(1, 2), (1, 3), (2, 3)])).is_empty());
        assert!(circles(&graph(&[])).is_empty());
    }
}
