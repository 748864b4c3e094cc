//! The order in which clrxasm walks its global symbol map, which decides
//! the order of the extra symbols in its ROCm code objects.
//!
//! clrxasm keeps a scope's symbols in a `std::unordered_map<CString,
//! AsmSymbol>` (libstdc++, CLRX's own string hash) and writes the global
//! symbols a `.gotsym` names in the order it iterates that map. That order
//! is a function of the keys and of the order they were inserted in: this
//! module replays libstdc++'s `_Hashtable` (its prime rehash policy with a
//! maximum load factor of 1, bucket-begin insertion and its rehash) for
//! the symbol names, in the order the assembly created them.

/// CLRX's `std::hash<CString>`.
fn clrx_hash(name: &str) -> u64 {
    let mut h: u64 = 0;
    for &c in name.as_bytes() {
        h = ((h << 8) ^ u64::from(c)).wrapping_mul(0xbf14_6a3d);
    }
    h
}

/// libstdc++'s `__prime_list` (from its start, as `_M_next_bkt` walks it).
const PRIMES: &[u64] = &[
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
    103, 109, 113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313,
    337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109,
    1193, 1289, 1381, 1493, 1613, 1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739,
    4027, 4349, 4703, 5087, 5503, 5953, 6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011,
    12983, 14033, 15173, 16411, 17749, 19183, 20753, 22447, 24281, 26267, 28411, 30727, 33223,
    35933, 38873, 42043, 45481, 49201, 53201, 57557, 62233, 67307, 72817, 78779, 85229, 92203,
    99733, 107897, 116731, 126271, 136607, 147793, 159871, 172933, 187091, 202409, 218971, 236897,
    256279, 277261, 299951, 324503, 351061, 379787, 410857, 444487, 480881, 520241, 562841, 608903,
    658753, 712697, 771049, 834181, 902483, 976369, 1056323, 1142821, 1236397, 1337629, 1447153,
    1565659, 1693859, 1832561, 1982627, 2144977, 2320627, 2510653, 2716249, 2938679, 3179303,
    3439651, 3721303, 4026031, 4355707, 4712381, 5098259, 5515729, 5967347, 6456007, 6984629,
    7556579, 8175383, 8844859, 9569143, 10352717, 11200489, 12117689, 13109983, 14183539, 15345007,
    16601593, 17961079, 19431899, 21023161, 22744717, 24607243, 26622317, 28802401, 31160981,
    33712729, 36473443, 39460231, 42691603, 46187573, 49969847, 54061849, 58488943, 63278561,
    68460391, 74066549, 80131819, 86693767, 93793069, 101473717, 109783337, 118773397, 128499677,
    139022417, 150406843, 162723577, 176048909, 190465427, 206062531, 222936881, 241193053,
    260944219, 282312799, 305431229, 330442829, 357502601, 386778277, 418451333, 452718089,
    489790921, 529899637, 573292817, 620239453, 671030513, 725980837, 785430967, 849749479,
    919334987, 994618837, 1076067617, 1164186217, 1259520799, 1362662261, 1474249943, 1594975441,
    1725587117, 1866894511, 2019773507, 2185171673, 2364114217, 2557710269, 2767159799, 2993761039,
    3238918481, 3504151727, 3791104843, 4101556399, 4294967291,
];

/// libstdc++'s `_Prime_rehash_policy` with a maximum load factor of 1.
struct Policy {
    next_resize: u64,
}

impl Policy {
    /// `_M_next_bkt`: the bucket count for at least `n` buckets.
    fn next_bkt(&mut self, n: u64) -> u64 {
        const FAST: [u64; 14] = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];
        if let Some(&b) = FAST.get(n as usize) {
            if n == 0 {
                return 1;
            }
            self.next_resize = b;
            return b;
        }
        // lower_bound over the list from its 7th entry (13), the last one
        // being the list's end.
        let tail = &PRIMES[6..PRIMES.len() - 1];
        let i = tail.partition_point(|&p| p < n);
        match tail.get(i) {
            Some(&p) => {
                self.next_resize = p;
                p
            }
            None => {
                self.next_resize = u64::MAX;
                PRIMES[PRIMES.len() - 1]
            }
        }
    }

    /// `_M_need_rehash`: the new bucket count when inserting `n_ins`
    /// elements into `n_elt` elements in `n_bkt` buckets needs one.
    fn need_rehash(&mut self, n_bkt: u64, n_elt: u64, n_ins: u64) -> Option<u64> {
        if n_elt + n_ins <= self.next_resize {
            return None;
        }
        let min_bkts = (n_elt + n_ins).max(if self.next_resize == 0 { 11 } else { 0 });
        if min_bkts >= n_bkt {
            return Some(self.next_bkt((min_bkts + 1).max(n_bkt * 2)));
        }
        self.next_resize = n_bkt;
        None
    }
}

/// Where a bucket's "before" node is: the list head or a node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Before {
    Head,
    Node(usize),
}

/// Puts `node` in the list right after `before`.
fn link_after(head: &mut Option<usize>, next: &mut [Option<usize>], before: Before, node: usize) {
    let after = match before {
        Before::Head => *head,
        Before::Node(b) => next[b],
    };
    next[node] = after;
    match before {
        Before::Head => *head = Some(node),
        Before::Node(b) => next[b] = Some(node),
    }
}

/// The order in which clrxasm iterates its global symbol map after the
/// assembly inserted `names` (in this order, each once; `.` is there from
/// the start): indices into `names`.
pub(crate) fn clrx_symbol_map_order(names: &[&str]) -> Vec<usize> {
    // Node 0 is `.`, node i + 1 is names[i].
    let hashes: Vec<u64> = std::iter::once(".")
        .chain(names.iter().copied())
        .map(clrx_hash)
        .collect();
    let mut next: Vec<Option<usize>> = vec![None; hashes.len()];
    let mut head: Option<usize> = None;
    let mut policy = Policy { next_resize: 0 };
    // The map is made from an initializer list of one element: libstdc++
    // 12 starts it with 13 buckets.
    let mut n_bkt = policy.next_bkt(13);
    let mut buckets: Vec<Option<Before>> = vec![None; n_bkt as usize];
    for node in 0..hashes.len() {
        if let Some(n) = policy.need_rehash(n_bkt, node as u64, 1) {
            // `_M_rehash_aux` for unique keys.
            let mut fresh: Vec<Option<Before>> = vec![None; n as usize];
            let mut p = head;
            head = None;
            let mut bbegin_bkt = 0usize;
            while let Some(cur) = p {
                let following = next[cur];
                let bkt = (hashes[cur] % n) as usize;
                match fresh[bkt] {
                    None => {
                        next[cur] = head;
                        head = Some(cur);
                        fresh[bkt] = Some(Before::Head);
                        if next[cur].is_some() {
                            fresh[bbegin_bkt] = Some(Before::Node(cur));
                        }
                        bbegin_bkt = bkt;
                    }
                    Some(before) => link_after(&mut head, &mut next, before, cur),
                }
                p = following;
            }
            buckets = fresh;
            n_bkt = n;
        }
        // `_M_insert_bucket_begin`.
        let bkt = (hashes[node] % n_bkt) as usize;
        match buckets[bkt] {
            Some(before) => link_after(&mut head, &mut next, before, node),
            None => {
                next[node] = head;
                head = Some(node);
                if let Some(n) = next[node] {
                    buckets[(hashes[n] % n_bkt) as usize] = Some(Before::Node(node));
                }
                buckets[bkt] = Some(Before::Head);
            }
        }
    }
    let mut order = Vec::with_capacity(names.len());
    let mut p = head;
    while let Some(cur) = p {
        if cur > 0 {
            order.push(cur - 1);
        }
        p = next[cur];
    }
    order
}

#[cfg(test)]
mod tests {
    use super::clrx_symbol_map_order;

    /// The orders libstdc++ 12 (g++ 12.2) gives for these insertions into
    /// CLRX's map (a C++ program of the map's type printed them).
    #[test]
    fn iterates_as_libstdcxx() {
        let names = ["a", "b", "k0", "g1", "g2", "g3"];
        let order: Vec<&str> = clrx_symbol_map_order(&names)
            .into_iter()
            .map(|i| names[i])
            .collect();
        assert_eq!(order, ["g2", "g1", "k0", "g3", "a", "b"]);
        // 200 names (the map rehashes several times on the way): the first
        // names and an FNV-1a hash of the whole order (joined by commas) as
        // the C++ program printed them.
        let names: Vec<String> = (0..200).map(|i| format!("s{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let order: Vec<&str> = clrx_symbol_map_order(&refs)
            .into_iter()
            .map(|i| refs[i])
            .collect();
        assert_eq!(
            order[..12],
            [
                "s199", "s198", "s197", "s196", "s195", "s194", "s193", "s182", "s181", "s180",
                "s172", "s171"
            ]
        );
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in order.join(",").as_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        assert_eq!(h, 0x1ae5_212a_3e4e_6bb3);
    }
}
