package jsonscan

import "strconv"

// LongString is a string value that [LongStrings] found in a JSON
// document: one whose text holds no escape, so that its bytes are its
// UTF-8 value.
type LongString struct {
	// Start and End bound the string's contents, quotes excluded:
	// data[Start:End].
	Start, End int
	// Path is a JSON array of the member names (as they are written) and
	// array indices that lead from the document's root to the value, such
	// as ["content",0,"text"]; [] when the document is the string.
	Path []byte
}

// LongStrings returns the string values of at least min bytes in the
// valid JSON document data whose text holds no escape, in document order.
// A reader that gets data parsed with these values left out (see
// [AppendSkeleton]) puts them back by their paths, taking their bytes as
// they are (decoding them from UTF-8 with no BOM handling): that is what a
// JavaScript glue does with a multi-megabyte tool result, saving
// JSON.parse a pass over every byte and a copy of the string.
//
// It leaves out a value whose path is not certain to lead to it in what a
// JSON parser that keeps the last of repeated member names builds (as
// JSON.parse does): one under a member whose name appears again later in
// its object, and, to keep the check on raw bytes, one under a member of
// an object that has a name written with an escape. (A name such as
// __proto__ needs no care: JSON.parse makes every member an own property,
// which a path assignment reaches.) So that it takes linear time whatever
// the document, it records strings under at most 32 members of one object,
// and at most 1024 in all. data must be valid JSON (the caller has
// checked); on other input the result is meaningless, but LongStrings
// does not panic.
//
// known, when not nil, lists the value strings of data of at least min
// bytes as [ValidRecord] recorded them with [Recorder.LongMin] at most min
// (offsets relative to data): LongStrings then takes their ends from it
// instead of scanning them, which leaves it little to do on a result that
// is mostly long strings.
//
// LongStrings is safe for concurrent use; it does not retain data or
// known.
func LongStrings(data []byte, min int, known []StringSpan) []LongString {
	var out []LongString
	k := 0 // the next of known
	var small [16]longFrame
	stack := small[:0]
	i := SkipSpace(data, 0)
	for i < len(data) {
		// A value starts at data[i].
		switch c := data[i]; c {
		case '{', '[':
			var taken []longTaken // the slice of a closed frame, reused
			if len(stack) < cap(stack) {
				taken = stack[:len(stack)+1][len(stack)].taken[:0]
			}
			stack = append(stack, longFrame{obj: c == '{', mark: len(out), taken: taken})
			i = SkipSpace(data, i+1)
			if i < len(data) && data[i] == c+2 { // empty
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				i = stack[len(stack)-1].member(data, i, out)
			}
			continue
		case '"':
			for k < len(known) && known[k].Start < i {
				k++
			}
			var end int
			var plain bool
			if k < len(known) && known[k].Start == i && known[k].End > i && known[k].End <= len(data) {
				end, plain = known[k].End, known[k].Plain
				k++
			} else {
				if end, plain = stringEndValidPlain(data, i); end < 0 {
					return settled(out) // invalid
				}
			}
			if plain && end-i-2 >= min && len(out) < maxLong && pathSafe(stack) {
				out = append(out, LongString{Start: i + 1, End: end - 1, Path: appendPath(nil, data, stack)})
			}
			i = end
		default:
			i = ValueEnd(data, i)
		}
		// After a value: a separator, a closing bracket or the end.
		for {
			if len(stack) == 0 {
				return settled(out)
			}
			f := &stack[len(stack)-1]
			if f.obj && len(out) > f.mark {
				f.took(out)
			}
			i = SkipSpace(data, i)
			if i >= len(data) {
				return settled(out)
			}
			switch data[i] {
			case ',':
				i = SkipSpace(data, i+1)
				if f.obj {
					i = f.member(data, i, out)
				} else {
					f.idx++
				}
			case '}', ']':
				stack = stack[:len(stack)-1]
				i++
				continue
			default:
				return settled(out) // invalid
			}
			break
		}
	}
	return settled(out)
}

// maxLong bounds the strings LongStrings records.
const maxLong = 1024

// longFrame is an open container on LongStrings' stack.
type longFrame struct {
	obj         bool
	key, keyEnd int  // the current member's name, quotes included
	escaped     bool // a name of this object so far was written with an escape
	full        bool // maxTaken members hold recorded strings: no more are recorded
	idx         int  // the current element's index (arrays)
	mark        int  // len(out) when the current member's value started
	taken       []longTaken
}

// longTaken is a member of an object under which LongStrings recorded
// out[from:to].
type longTaken struct {
	key, keyEnd int
	from, to    int
}

// maxTaken bounds the members of one object under which strings are
// recorded, so that checking each later name against them takes linear
// time.
const maxTaken = 32

// took notes that out[f.mark:] was recorded under f's current member, or
// drops those strings when f already has maxTaken such members.
func (f *longFrame) took(out []LongString) {
	if len(f.taken) < maxTaken {
		f.taken = append(f.taken, longTaken{f.key, f.keyEnd, f.mark, len(out)})
	} else {
		for k := f.mark; k < len(out); k++ {
			out[k].Start = -1
		}
		f.full = true
	}
	f.mark = len(out)
}

// member reads the member name at data[i] of the object f and returns the
// index of its value. A name that repeats one under which strings were
// recorded (or any name written with an escape, once strings were
// recorded under this object) drops those strings: JSON.parse keeps the
// later value.
func (f *longFrame) member(data []byte, i int, out []LongString) int {
	end, plain := stringEndValidPlain(data, i)
	if end < 0 {
		return len(data) // invalid: LongStrings stops
	}
	f.key, f.keyEnd, f.mark = i, end, len(out)
	if !plain {
		f.escaped = true
	}
	for _, t := range f.taken {
		if f.escaped || string(data[i:end]) == string(data[t.key:t.keyEnd]) {
			for k := t.from; k < t.to; k++ {
				out[k].Start = -1
			}
		}
	}
	i = SkipSpace(data, end)
	if i < len(data) && data[i] == ':' {
		i++
	}
	return SkipSpace(data, i)
}

// pathSafe reports whether a value at the top of stack may be recorded:
// no object on its path has a name written with an escape, or is full.
func pathSafe(stack []longFrame) bool {
	for k := range stack {
		if f := &stack[k]; f.obj && (f.escaped || f.full) {
			return false
		}
	}
	return true
}

// appendPath appends the JSON array of the names and indices on stack.
func appendPath(dst, data []byte, stack []longFrame) []byte {
	dst = append(dst, '[')
	for k := range stack {
		if k > 0 {
			dst = append(dst, ',')
		}
		if f := &stack[k]; f.obj {
			dst = append(dst, data[f.key:f.keyEnd]...)
		} else {
			dst = strconv.AppendInt(dst, int64(f.idx), 10)
		}
	}
	return append(dst, ']')
}

// settled returns out without the strings a repeated name dropped.
func settled(out []LongString) []LongString {
	n := 0
	for _, s := range out {
		if s.Start >= 0 {
			out[n] = s
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return out[:n]
}

// AppendSkeleton appends data with each string of ls (from [LongStrings]
// on data) replaced by the number 0.
func AppendSkeleton(dst, data []byte, ls []LongString) []byte {
	at := 0
	for _, s := range ls {
		dst = append(dst, data[at:s.Start-1]...)
		dst = append(dst, '0')
		at = s.End + 1
	}
	return append(dst, data[at:]...)
}
