// Package order sorts strings with little code.
//
// slices.Sort on strings instantiates pdqsort for them: ≈ 17 KB of
// WebAssembly code in a module (docs/size.md). The library sorts short
// lists (map keys for a deterministic encoding, header names, schema
// member names), so Strings is an insertion sort for short slices and a
// heap sort above that: O(n log n) in every case, never quadratic on input
// a server controls, and a few hundred bytes of code.
//
// Strings is safe for concurrent use on distinct slices.
package order

// short is the length up to which Strings sorts by insertion.
const short = 12

// Strings sorts s in increasing order, as slices.Sort does. It is safe for
// concurrent use on distinct slices.
func Strings(s []string) {
	if len(s) <= short {
		for i := 1; i < len(s); i++ {
			for j := i; j > 0 && s[j] < s[j-1]; j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
		return
	}
	for i := len(s)/2 - 1; i >= 0; i-- {
		siftDown(s, i, len(s))
	}
	for end := len(s) - 1; end > 0; end-- {
		s[0], s[end] = s[end], s[0]
		siftDown(s, 0, end)
	}
}

// siftDown restores the max-heap property of s[:n] below root.
func siftDown(s []string, root, n int) {
	for {
		child := 2*root + 1
		if child >= n {
			return
		}
		if child+1 < n && s[child] < s[child+1] {
			child++
		}
		if s[root] >= s[child] {
			return
		}
		s[root], s[child] = s[child], s[root]
		root = child
	}
}
