package jsonscan

import "unsafe"

// Valid reports whether data is exactly one valid JSON value (with
// optional surrounding white space): the same answer as encoding/json's
// Valid, which the fuzz test FuzzValidJSON checks. It exists because every
// incoming message is validated once, whole, before its envelope is split,
// and encoding/json's scanner (a state machine that makes an indirect call
// per byte) costs tens of nanoseconds a byte inside WebAssembly: a
// multi-megabyte result spent most of its time there. This is a plain loop
// with an explicit nesting stack; it allocates only for documents nested
// deeper than 64 levels.
func Valid(data []byte) bool {
	_, ok := validate(data, Recorder{}, false)
	return ok
}

// ValidMembers is [Valid] and, when data is a JSON object, [SplitMembers]
// in the same pass: it appends the top-level members to dst. A message is
// validated whole and then split into its envelope; doing both in one walk
// saves a second scan of every string of a multi-megabyte result. On
// invalid data it reports false, and what it appended is meaningless.
func ValidMembers(data []byte, dst []Member) ([]Member, bool) {
	r, ok := validate(data, Recorder{Top: dst}, true)
	return r.Top, ok
}

// Recorder collects what [ValidRecord] finds on its way: the top-level
// members of an object, and the members of the object that one of them
// holds (a JSON-RPC response's result), so that the member a caller looks
// for in a multi-megabyte result costs no second walk over it. A Recorder
// is a value: ValidRecord returns what it recorded (which leaves the
// slices given to it on the caller's stack).
type Recorder struct {
	// Top receives the top-level members, as ValidMembers appends them.
	Top []Member
	// Name selects the top-level member whose object value's members go
	// to Inner: its name as it is written, quotes included (a name written
	// with escapes is not recognised). "" records none.
	Name string
	// Inner receives the members of the last object value of the member
	// Name, when InnerAt >= 0.
	Inner []Member
	// LongMin, when positive, has the value strings (not member names) of
	// at least LongMin bytes between their quotes recorded in Long.
	LongMin int
	// Long receives the strings LongMin selects, in document order.
	Long []StringSpan
	// InnerAt is the index in data of the object whose members Inner
	// holds, or -1 when no member Name held an object (set by
	// ValidRecord). A caller compares it with the offset of the value it
	// took for the member: a later member of the same name with another
	// value leaves Inner describing an object the caller did not keep.
	InnerAt int
}

// StringSpan is a string value that [ValidRecord] recorded (see
// [Recorder.LongMin]).
type StringSpan struct {
	// Start and End bound the string in the document, quotes included.
	Start, End int
	// Plain reports that the string is written without escapes.
	Plain bool
}

// ValidRecord is [ValidMembers] that records as r says and returns what it
// recorded: the top-level members of data (appended to r.Top) and, when
// r.Name is set, the members of the object value of the top-level member
// r.Name (appended to r.Inner; see [Recorder]). On invalid data it reports
// false, and what it recorded is meaningless.
func ValidRecord(data []byte, r Recorder) (Recorder, bool) {
	r.InnerAt = -1
	return validate(data, r, true)
}

// validate is Valid; with rec it records into r as ValidRecord says.
func validate(data []byte, r Recorder, rec bool) (Recorder, bool) {
	var small [64]byte
	stack := small[:0]     // '{' or '[' per open container
	key, valStart := 0, -1 // the current top-level member (rec only)
	// The members of the object held by the top-level member r.Name: in
	// is set while that object is open (at depth 2), ikey and ival are
	// its current member as key and valStart are the top level's.
	in, ikey, ival := false, 0, -1
	i := SkipSpace(data, 0)
	for {
		// A value starts at data[i].
		if i >= len(data) {
			return r, false
		}
		switch c := data[i]; {
		case c == '{' || c == '[':
			if len(stack) >= maxJSONDepth {
				return r, false
			}
			if rec && c == '{' && len(stack) == 1 && stack[0] == '{' && valStart >= 0 && r.Name != "" && hasName(data, key, r.Name) {
				in, r.InnerAt, r.Inner = true, i, r.Inner[:0]
			}
			stack = append(stack, c)
			i = SkipSpace(data, i+1)
			if i < len(data) && data[i] == c+2 { // '}' or ']': empty
				if len(stack) == 2 {
					in = false
				}
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				at := i
				if i = objectKey(data, i); i < 0 {
					return r, false
				}
				if rec && len(stack) == 1 {
					key, valStart = at, i
				} else if in && len(stack) == 2 {
					ikey, ival = at, i
				}
			}
			continue
		case c == '"':
			at := i
			var plain bool
			if i, plain = stringEndValidPlain(data, i); i < 0 {
				return r, false
			}
			if r.LongMin > 0 && i-at-2 >= r.LongMin {
				r.Long = append(r.Long, StringSpan{Start: at, End: i, Plain: plain})
			}
		case c == '-' || (c >= '0' && c <= '9'):
			if i = numberEnd(data, i); i < 0 {
				return r, false
			}
		case c == 't':
			if !hasLiteral(data, i, "true") {
				return r, false
			}
			i += 4
		case c == 'f':
			if !hasLiteral(data, i, "false") {
				return r, false
			}
			i += 5
		case c == 'n':
			if !hasLiteral(data, i, "null") {
				return r, false
			}
			i += 4
		default:
			return r, false
		}
		// After a value: a separator, a closing bracket or the end.
		for {
			if rec {
				if valStart >= 0 && len(stack) == 1 {
					k, _ := memberKey(data[key:StringEnd(data, key)]) // valid: cannot fail
					r.Top = append(r.Top, Member{k, data[valStart:i]})
					valStart = -1
				} else if in && ival >= 0 && len(stack) == 2 {
					k, _ := memberKey(data[ikey:StringEnd(data, ikey)])
					r.Inner = append(r.Inner, Member{k, data[ival:i]})
					ival = -1
				}
			}
			i = SkipSpace(data, i)
			if len(stack) == 0 {
				return r, i == len(data)
			}
			if i >= len(data) {
				return r, false
			}
			top := stack[len(stack)-1]
			switch data[i] {
			case ',':
				i = SkipSpace(data, i+1)
				if top == '{' {
					at := i
					if i = objectKey(data, i); i < 0 {
						return r, false
					}
					if rec && len(stack) == 1 {
						key, valStart = at, i
					} else if in && len(stack) == 2 {
						ikey, ival = at, i
					}
				}
			case top + 2: // '}' or ']'
				if len(stack) == 2 {
					in = false
				}
				stack = stack[:len(stack)-1]
				i++
				continue
			default:
				return r, false
			}
			break
		}
	}
}

// maxJSONDepth is encoding/json's nesting limit.
const maxJSONDepth = 10000

// hasName reports whether the member name at data[at] is name (quotes
// included), written without escapes.
func hasName(data []byte, at int, name string) bool {
	return len(data)-at > len(name) && string(data[at:at+len(name)]) == name
}

// objectKey checks a Member name and its colon at data[i] and returns the
// index of the value, or -1.
func objectKey(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	if i = stringEndValid(data, i); i < 0 {
		return -1
	}
	i = SkipSpace(data, i)
	if i >= len(data) || data[i] != ':' {
		return -1
	}
	return SkipSpace(data, i+1)
}

// plainStringByte has '1' at the bytes a JSON string may hold as they are
// (not a quote, a backslash or a control character).
const plainStringByte = "0000000000000000000000000000000011011111111111111111111111111111111111111111111111111111111101111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"

// stringEndValid returns the index after the valid JSON string starting at
// data[i], or -1.
func stringEndValid(data []byte, i int) int {
	end, _ := stringEndValidPlain(data, i)
	return end
}

// stringEndValidPlain is stringEndValid that also reports whether the
// string is written without escapes.
func stringEndValidPlain(data []byte, i int) (int, bool) {
	plain := true
	for j := i + 1; j < len(data); j++ {
		j = plainRun(data, j)
		if j == len(data) {
			break
		}
		c := data[j]
		switch {
		case c == '"':
			return j + 1, plain
		case c < 0x20:
			return -1, false
		case c == '\\':
			plain = false
			j++
			if j >= len(data) {
				return -1, false
			}
			switch data[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(data) {
					return -1, false
				}
				for _, h := range data[j+1 : j+5] {
					if !isHex(h) {
						return -1, false
					}
				}
				j += 4
			default:
				return -1, false
			}
		}
	}
	return -1, false
}

// plainRun returns the index of the first byte from j on that is not a
// plain string byte, or len(data). It scans at most plainChunk bytes per
// call of plainSpan: inside WebAssembly a function that runs long keeps
// the code it was entered with (V8 has no on-stack replacement for wasm),
// so a multi-megabyte string scanned in one call would run entirely in the
// baseline compiler's code; short calls pick up the optimised code as soon
// as it is ready.
func plainRun(data []byte, j int) int {
	for j < len(data) {
		end := min(j+plainChunk, len(data))
		k := plainSpan(data, j, end)
		if k < end {
			return k
		}
		j = end
	}
	return j
}

const plainChunk = 4096

// plainSpan returns the index of the first non-plain string byte in
// data[j:end], or end. It must stay a function of its own (see plainRun).
// It tests eight bytes at a time (a quote, a backslash or a control byte
// anywhere in a word sends that word to the byte table), which is what
// long strings — a multi-megabyte tool result is mostly one — spend their
// validation in.
//
//go:noinline
func plainSpan(data []byte, j, end int) int {
	// Word loads through unsafe: j+8 <= end <= len(data) keeps them in
	// bounds, and specialBits does not depend on byte order. A word
	// assembled from eight byte loads (binary.LittleEndian.Uint64's
	// expression) is one load on amd64 and arm64 but eight in
	// WebAssembly, where the loop then ran at 2 GB/s instead of 5.
	if end <= len(data) {
		p := unsafe.Pointer(unsafe.SliceData(data))
		// Eight bytes at a time; once 32 bytes in a row were plain, 32 at
		// a time (four words, one branch) until a chunk is not. Short
		// runs between escapes stay on the eight-byte loop.
		for clean := 0; j+8 <= end && specialBits(*(*uint64)(unsafe.Add(p, j))) == 0; {
			j += 8
			if clean++; clean < 4 {
				continue
			}
			for j+32 <= end && specialBits(*(*uint64)(unsafe.Add(p, j)))|specialBits(*(*uint64)(unsafe.Add(p, j+8)))|
				specialBits(*(*uint64)(unsafe.Add(p, j+16)))|specialBits(*(*uint64)(unsafe.Add(p, j+24))) == 0 {
				j += 32
			}
			clean = 0
		}
	}
	for j < end && plainStringByte[data[j]] == '1' {
		j++
	}
	return j
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specialWord reports whether any of the eight bytes of w is a quote, a
// backslash or below 0x20. Each test is the "has a byte below n" idiom,
// (x - ones*n) & ^x & highs: with n = 0x20 on w itself, with n = 1 on w
// xor the byte repeated. A borrow only starts at a byte that matches, so
// when no byte matches the result is exactly zero.
func specialWord(w uint64) bool { return specialBits(w) != 0 }

// specialBits is specialWord's test before the comparison with zero, so
// that several words can be tested with one branch.
func specialBits(w uint64) uint64 {
	quote := w ^ (ones * '"')
	backslash := w ^ (ones * '\\')
	return ((w - ones*0x20) | (quote - ones) | (backslash - ones)) & ^w & highs
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// numberEnd returns the index after the valid JSON number starting at
// data[i], or -1.
func numberEnd(data []byte, i int) int {
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = digits(data, i+1)
	default:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		j := digits(data, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digits(data, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

func hasLiteral(data []byte, i int, lit string) bool {
	return len(data)-i >= len(lit) && string(data[i:i+len(lit)]) == lit
}
