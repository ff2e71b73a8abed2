package jsonscan

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// long is a string of n plain bytes.
func long(n int) string { return strings.Repeat("x", n) }

func TestLongStrings(t *testing.T) {
	L := long(8)
	tests := []struct {
		name  string
		doc   string
		paths []string // the recorded strings' paths, in order
	}{
		{"tool result", `{"content":[{"type":"text","text":"` + L + `"}]}`, []string{`["content",0,"text"]`}},
		{"short", `{"content":[{"type":"text","text":"xxxxxxx"}]}`, nil},
		{"escaped", `{"text":"` + L + `\n"}`, nil},
		{"escaped quote", `{"text":"` + L + `\""}`, nil},
		{"the document", ` "` + L + `" `, []string{`[]`}},
		{"a long name is no value", `{"` + L + `":1}`, nil},
		{"whitespace", "{ \"a\" :\t[ 1 ,\n\"" + L + "\" ] }", []string{`["a",1]`}},
		{"several", `[["` + L + `"],"` + L + `",{"b":{"c":"` + L + `"}}]`, []string{`[0,0]`, `[1]`, `[2,"b","c"]`}},
		{"non-ASCII", `{"é":"` + L + `é"}`, []string{`["é"]`}},
		{"a later repeated name wins", `{"text":"` + L + `","text":"x"}`, nil},
		{"the later of a repeated name", `{"text":"x","text":"` + L + `"}`, []string{`["text"]`}},
		{"a repeated name on the path", `{"a":{"t":"` + L + `"},"b":2,"a":1}`, nil},
		{"the later value on the path", `{"a":1,"a":{"t":"` + L + `"}}`, []string{`["a","t"]`}},
		{"the same name in other objects", `{"a":{"t":"` + L + `"},"b":{"t":1},"t":2}`, []string{`["a","t"]`}},
		{"an escaped name after", `{"t":"` + L + `","\u0074":1}`, nil},
		{"an escaped name before", `{"\u0061":1,"t":"` + L + `"}`, nil},
		{"an escaped name on the path", `{"\u0061":{"t":"` + L + `"}}`, nil},
		{"__proto__", `{"__proto__":"` + L + `"}`, []string{`["__proto__"]`}},
		{"under __proto__", `{"__proto__":{"t":"` + L + `"}}`, []string{`["__proto__","t"]`}},
		{"empty containers", `{"a":{},"b":[],"c":"` + L + `"}`, []string{`["c"]`}},
		{"after scalars", `[true,false,null,-1.5e3,"` + L + `"]`, []string{`[4]`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.True(t, Valid([]byte(tc.doc)))
			ls := LongStrings([]byte(tc.doc), len(L), nil)
			var paths []string
			for _, s := range ls {
				paths = append(paths, string(s.Path))
				assert.True(t, strings.HasPrefix(tc.doc[s.Start:s.End], L))
			}
			assert.Equal(t, tc.paths, paths)
			checkRebuild(t, []byte(tc.doc), len(L))
		})
	}
}

func TestLongStringsBounds(t *testing.T) {
	t.Run("members per object", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("{")
		for i := range maxTaken + 3 {
			fmt.Fprintf(&b, `"k%d":"xxxx",`, i)
		}
		b.WriteString(`"z":1}`)
		ls := LongStrings([]byte(b.String()), 4, nil)
		assert.Len(t, ls, maxTaken)
		checkRebuild(t, []byte(b.String()), 4)
	})
	t.Run("strings in all", func(t *testing.T) {
		doc := "[" + strings.Repeat(`"xx",`, maxLong+10) + "1]"
		assert.Len(t, LongStrings([]byte(doc), 2, nil), maxLong)
		checkRebuild(t, []byte(doc), 2)
	})
	t.Run("invalid input", func(t *testing.T) {
		for _, doc := range []string{`{"a":"xxxx`, `["xxxx"`, `{"a"`, `[}`, `{"a":"xxxx"]`, `"\`, `{`, `[1,`, `:`, "{\"a\":\"xx\x01xx\"}"} {
			assert.NotPanics(t, func() { LongStrings([]byte(doc), 1, nil) }, doc)
			assert.NotPanics(t, func() { LongStrings([]byte(doc), 1, []StringSpan{{Start: 0, End: 100}, {Start: 1, End: 3}}) }, doc)
		}
	})
}

// checkRebuild checks that data parsed with its long strings left out and
// put back by their paths is data parsed (by encoding/json, which keeps the
// last of repeated names, as JSON.parse does).
func checkRebuild(t *testing.T, data []byte, min int) {
	t.Helper()
	var want any
	require.NoError(t, json.Unmarshal(data, &want))
	ls := LongStrings(data, min, nil)
	// With the strings validation recorded, the same answer.
	rec, ok := ValidRecord(data, Recorder{LongMin: min})
	require.True(t, ok)
	for _, s := range rec.Long {
		end, plain := stringEndValidPlain(data, s.Start)
		require.Equal(t, end, s.End)
		require.Equal(t, plain, s.Plain)
	}
	require.Equal(t, ls, LongStrings(data, min, rec.Long), "with the recorded strings")
	var got any
	require.NoError(t, json.Unmarshal(AppendSkeleton(nil, data, ls), &got), "skeleton %s", AppendSkeleton(nil, data, ls))
	for _, s := range ls {
		val := replaceInvalid(data[s.Start:s.End])
		var path []any
		require.NoError(t, json.Unmarshal(s.Path, &path))
		if len(path) == 0 {
			got = val
			continue
		}
		o := got
		for k, step := range path {
			last := k == len(path)-1
			switch step := step.(type) {
			case string:
				m := o.(map[string]any)
				if last {
					require.Equal(t, float64(0), m[step], "placeholder at %s", s.Path)
					m[step] = val
				} else {
					o = m[step]
				}
			case float64:
				a := o.([]any)
				if last {
					require.Equal(t, float64(0), a[int(step)], "placeholder at %s", s.Path)
					a[int(step)] = val
				} else {
					o = a[int(step)]
				}
			}
		}
	}
	assert.Equal(t, want, got)
}

// replaceInvalid is b as encoding/json decodes a string's bytes: each byte
// of invalid UTF-8 becomes U+FFFD.
func replaceInvalid(b []byte) string {
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		sb.WriteRune(r)
		b = b[n:]
	}
	return sb.String()
}

func FuzzLongStrings(f *testing.F) {
	for _, doc := range []string{
		`{"content":[{"type":"text","text":"xxxx"}]}`, `{"t":"xxxx","t":"y"}`, `{"a":{"t":"xxxx"},"a":1}`, `{"\u0061":1,"t":"xxxx"}`,
		`{"__proto__":{"t":"xxxx"}}`, `[["xxxx"],"xxxx",{"b":{"c":"xxxx"}}]`, `"xxxx"`, `{"a":"x\u0000xxx","b":"\xff\xfexx"}`,
	} {
		f.Add([]byte(doc), 2)
	}
	f.Fuzz(func(t *testing.T, data []byte, min int) {
		min = 1 + (min&0xff)%8
		ls := LongStrings(data, min, nil) // must not panic on any input
		if !json.Valid(data) {
			return
		}
		for _, s := range ls {
			require.GreaterOrEqual(t, s.End-s.Start, min)
			require.NotContains(t, string(data[s.Start:s.End]), `\`)
		}
		checkRebuild(t, data, min)
	})
}

func BenchmarkLongStrings(b *testing.B) {
	doc := []byte(`{"content":[{"type":"text","text":"` + long(1<<20) + `"}],"isError":false}`)
	b.SetBytes(int64(len(doc)))
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			LongStrings(doc, 16<<10, nil)
		}
	})
	b.Run("known", func(b *testing.B) {
		rec, _ := ValidRecord(doc, Recorder{LongMin: 16 << 10})
		for b.Loop() {
			LongStrings(doc, 16<<10, rec.Long)
		}
	})
}
