package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var validJSONCases = []string{
	``, ` `, `{}`, `[]`, `{ }`, `[ ]`, `null`, `true`, `false`, `nul`, `truex`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `1e5`, `1E+5`, `1e`, `1e-`,
	`-1.25e-10`, `"a"`, `"\u00e9"`, `"\u00g9"`, `"\x"`, `"\/"`, "\"\x01\"", `"abc`, `{"a":1}`, `{"a":1,}`, `{"a"1}`, `{"a":}`, `{a:1}`,
	`[1,2,[3,{"b":[]}]]`, `[1,]`, `[,1]`, `[1 2]`, `{"a":1}{}`, `{"a":1} `, ` {"a":1}`, `{"a":[1,{"b":null}],"c":"d"}`, `]`, `}`, `[}`, `{]`,
	`"\ud800"`, "\"é\"", "\"\xff\"", `[[[[[[]]]]]]`, `{"":""}`, `"\"`, `"\\"`, `[1e400]`, `[-]`, `[.5]`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 70) + "1" + strings.Repeat("}", 70),
}

func TestValidJSONMatchesEncodingJSON(t *testing.T) {
	for _, c := range validJSONCases {
		name := c
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, json.Valid([]byte(c)), Valid([]byte(c)))
		})
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, c := range validJSONCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want := json.Valid(data)
		if got := Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
		checkValidMembers(t, data, want)
	})
}

// checkValidMembers: ValidMembers gives Valid's answer and, for an
// object, the members SplitMembers gives.
func checkValidMembers(t *testing.T, data []byte, valid bool) {
	t.Helper()
	ms, ok := ValidMembers(data, nil)
	if ok != valid {
		t.Fatalf("ValidMembers(%q) = %v, want %v", data, ok, valid)
	}
	if !ok {
		return
	}
	trimmed := trimSpace(data)
	if trimmed[0] != '{' {
		if len(ms) != 0 {
			t.Fatalf("ValidMembers(%q): members of a non-object: %q", data, ms)
		}
		return
	}
	want, err := SplitMembers(trimmed)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != len(want) {
		t.Fatalf("ValidMembers(%q) = %q, SplitMembers %q", data, ms, want)
	}
	for i := range ms {
		if ms[i].Key != want[i].Key || string(ms[i].Val) != string(want[i].Val) {
			t.Fatalf("ValidMembers(%q)[%d] = %q, SplitMembers %q", data, i, ms[i], want[i])
		}
	}
	for _, name := range []string{`"result"`, `"a"`, `"b"`} {
		checkValidRecord(t, data, name, want)
	}
}

// checkValidRecord: ValidRecord records the top-level members ValidMembers
// does, and the members of the last object held by a member written as
// name (found here with a plain walk of the raw member names, then
// SplitMembers).
func checkValidRecord(t *testing.T, data []byte, name string, top []Member) {
	t.Helper()
	r, ok := ValidRecord(data, Recorder{Name: name, Inner: []Member{{Key: "stale"}}})
	require.True(t, ok)
	require.Equal(t, len(top), len(r.Top), "%q", data)
	wantAt, wantInner := -1, []Member(nil)
	i := SkipSpace(data, 0) + 1
	for i = SkipSpace(data, i); i < len(data) && data[i] != '}'; i = SkipSpace(data, i) {
		if data[i] == ',' {
			i = SkipSpace(data, i+1)
		}
		kend := StringEnd(data, i)
		rawName := string(data[i:kend])
		i = SkipSpace(data, SkipSpace(data, kend)+1)
		vend := ValueEnd(data, i)
		if rawName == name && data[i] == '{' {
			inner, err := SplitMembers(data[i:vend])
			require.NoError(t, err)
			wantAt, wantInner = i, inner
		}
		i = vend
	}
	require.Equal(t, wantAt, r.InnerAt, "ValidRecord(%q, %s): InnerAt", data, name)
	if wantAt < 0 {
		return
	}
	require.Equal(t, len(wantInner), len(r.Inner), "ValidRecord(%q, %s): %q, want %q", data, name, r.Inner, wantInner)
	for k := range wantInner {
		require.Equal(t, wantInner[k].Key, r.Inner[k].Key)
		require.Equal(t, string(wantInner[k].Val), string(r.Inner[k].Val))
	}
}

func TestValidRecord(t *testing.T) {
	cases := []struct {
		name, data string
		inner      []string // "key=value" of Inner; nil when InnerAt is -1
	}{
		{"result first", `{"result":{"content":[{"type":"text","text":"x"}],"resultType":"complete"},"id":1,"jsonrpc":"2.0"}`,
			[]string{`content=[{"type":"text","text":"x"}]`, `resultType="complete"`}},
		{"result last, spaced", ` { "jsonrpc" : "2.0" , "id" : 1 , "result" : { "a" : { "resultType" : 1 } , "resultType" : "task" } } `,
			[]string{`a={ "resultType" : 1 }`, `resultType="task"`}},
		{"empty result", `{"id":1,"result":{}}`, []string{}},
		{"array result", `{"id":1,"result":[{"a":1}]}`, nil},
		{"string result", `{"id":1,"result":"{\"a\":1}"}`, nil},
		{"no result", `{"id":1,"error":{"code":1,"message":"m"}}`, nil},
		{"nested name is not top-level", `{"params":{"result":{"a":1}}}`, nil},
		{"escaped name is not recognised", `{"res\u0075lt":{"a":1}}`, nil},
		{"longer name", `{"resultX":{"a":1}}`, nil},
		{"the last of two wins", `{"result":{"a":1},"result":{"b":2}}`, []string{`b=2`}},
		{"a top-level array", `[{"result":{"a":1}}]`, nil},
		{"escaped inner names", `{"result":{"\u0061":1,"é":2}}`, []string{`a=1`, `é=2`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, ok := ValidRecord([]byte(c.data), Recorder{Name: `"result"`})
			require.True(t, ok)
			if c.inner == nil {
				assert.Equal(t, -1, r.InnerAt)
				return
			}
			require.GreaterOrEqual(t, r.InnerAt, 0)
			assert.Equal(t, byte('{'), c.data[r.InnerAt])
			got := []string{}
			for _, m := range r.Inner {
				got = append(got, m.Key+"="+string(m.Val))
			}
			assert.Equal(t, c.inner, got)
			checkValidRecord(t, []byte(c.data), `"result"`, func() []Member { ms, _ := ValidMembers([]byte(c.data), nil); return ms }())
		})
	}
	t.Run("invalid", func(t *testing.T) {
		_, ok := ValidRecord([]byte(`{"result":{"a":1}`), Recorder{Name: `"result"`})
		assert.False(t, ok)
		_, ok = ValidRecord([]byte(`{"result":{"a":1},}`), Recorder{Name: `"result"`})
		assert.False(t, ok)
	})
}

func TestValidMembers(t *testing.T) {
	for _, c := range append(validJSONCases, `{}`, ` { "a" : 1 , "b" : { "c" : [ 1 , { } ] } , "d\u00e9" : "x" , "e" : [] } `, `{"a":{},"b":[],"c":""}`, `[{"a":1}]`, `{"a":1,}`, `{"a" 1}`) {
		checkValidMembers(t, []byte(c), json.Valid([]byte(c)))
	}
}

// TestPlainSpanEveryPosition puts each kind of non-plain byte at every position of a
// long plain run, at every start offset and end, and holds plainSpan to the
// byte-by-byte definition (its word loops take 8 and 32 bytes at a time).
func TestPlainSpanEveryPosition(t *testing.T) {
	naive := func(b []byte, j, end int) int {
		for j < end && plainStringByte[b[j]] == '1' {
			j++
		}
		return j
	}
	for _, special := range []byte{'"', '\\', 0x00, 0x1f, '\n'} {
		for _, plain := range []byte{'a', 0x20, 0x7f, 0x80, 0xff, '!', '#', '[', ']'} {
			for at := 0; at < 100; at++ {
				b := bytes.Repeat([]byte{plain}, 100)
				b[at] = special
				for j := 0; j < 10; j++ {
					for _, end := range []int{at, at + 1, 99, 100} {
						if end < j {
							continue
						}
						require.Equal(t, naive(b, j, end), plainSpan(b, j, end), "special %#x plain %#x at %d from %d to %d", special, plain, at, j, end)
					}
				}
			}
		}
	}
}

func BenchmarkValidJSON(b *testing.B) {
	data := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + strings.Repeat("lorem ipsum \\n dolor ", 500) + `"}],"structuredContent":{"n":[1,2.5,-3e4,true,null]}}}`)
	b.Run("Valid", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			Valid(data)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			json.Valid(data)
		}
	})
	// A 1 MB tool result: one long plain string, what big results spend
	// their validation and key search in.
	big := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + strings.Repeat("abcdefghij", 1<<17) + `"}]}}`)
	b.Run("Valid/1MB", func(b *testing.B) {
		b.SetBytes(int64(len(big)))
		for i := 0; i < b.N; i++ {
			Valid(big)
		}
	})
	b.Run("ValueEnd/1MB", func(b *testing.B) {
		b.SetBytes(int64(len(big)))
		for i := 0; i < b.N; i++ {
			ValueEnd(big, 0)
		}
	})
}

// stringEndNaive is the byte-by-byte definition StringEnd must match.
func stringEndNaive(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

func FuzzStringEnd(f *testing.F) {
	for _, s := range []string{`"a"`, `"\""`, `"\\"`, `"\\\""x"`, `"\\\\"`, `"abc`, `"\`, `"a\"b\\"c"`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			return
		}
		if got, want := StringEnd(b, 0), stringEndNaive(b, 0); got != want {
			t.Fatalf("StringEnd(%q) = %d, want %d", b, got, want)
		}
	})
}

// TestSpecialWord compares the eight-byte test with the byte table, for
// every byte value at every position of a word of plain bytes, and for
// random words.
func TestSpecialWord(t *testing.T) {
	naive := func(w uint64) bool {
		for i := range 8 {
			if plainStringByte[byte(w>>(8*i))] != '1' {
				return true
			}
		}
		return false
	}
	const plain = 0x6161616161616161 // "aaaaaaaa"
	for pos := range 8 {
		for c := range 256 {
			w := plain&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
			if got, want := specialWord(w), naive(w); got != want {
				t.Fatalf("specialWord(%#016x) = %v, the byte table says %v", w, got, want)
			}
		}
	}
	x := uint64(0x9e3779b97f4a7c15)
	for range 1 << 20 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if got, want := specialWord(x), naive(x); got != want {
			t.Fatalf("specialWord(%#016x) = %v, the byte table says %v", x, got, want)
		}
	}
}

func TestPlainSpan(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefgh", "abcdefghi", strings.Repeat("x", 100) + `"`, strings.Repeat("é", 40) + "\\", strings.Repeat("y", 17) + "\x1f" + "zz"} {
		want := 0
		for want < len(s) && plainStringByte[s[want]] == '1' {
			want++
		}
		for j := 0; j <= len(s); j++ {
			w := max(want, j)
			if j > want {
				w = j
				for w < len(s) && plainStringByte[s[w]] == '1' {
					w++
				}
			}
			assert.Equal(t, w, plainSpan([]byte(s), j, len(s)), "%q from %d", s, j)
		}
	}
}
