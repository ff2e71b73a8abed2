package errf

import (
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type name string

func (n name) String() string { return "name:" + string(n) }

// TestSameAsFmt checks that Sprintf writes what fmt.Sprintf writes for
// every verb and operand type the library formats.
func TestSameAsFmt(t *testing.T) {
	tests := []struct {
		format string
		args   []any
	}{
		{"plain", nil},
		{"%s and %v", []any{"a", "b"}},
		{"%q", []any{"quote \"me\"\n"}},
		{"%d %d %d %d", []any{1, int64(-2), uint8(3), uint64(1 << 63)}},
		{"%v %v", []any{int32(7), uint16(9)}},
		{"%x %X %#x %02x %08x", []any{255, 255, 255, 5, 0xbeef}},
		{"%x %#x", []any{"hi", []byte{1, 0xab}}},
		{"%s %v %q", []any{[]byte("raw"), []byte{1, 2}, []byte("b")}},
		{"%v %s", []any{io.EOF, errors.New("boom")}},
		{"%v %s %q", []any{name("n"), time.Second, name("q")}},
		{"%v %t", []any{true, false}},
		{"%v %v %g", []any{1.5, 1e21, 0.000001}},
		{"%v", []any{float32(0.1)}},
		{"%.3s|%.20s|%.2q", []any{"abcdef", "short", "héllo"}},
		{"%5s|%-5s|%5d|%-4d|%05d", []any{"ab", "ab", 42, 7, -42}},
		{"100%% %c %q", []any{'x', 'y'}},
		{"%v %q %s", []any{[]string{"a", "b c"}, []string{"x"}, []string{}}},
		{"%v", []any{[]any{"s", 1.5, true, nil, []any{"n"}}}},
		{"%v", []any{nil}},
		{"%s", []any{nil}},
		{"%d", []any{}},
		{"%d", []any{1, "extra"}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			assert.Equal(t, fmt.Sprintf(tt.format, tt.args...), Sprintf(tt.format, tt.args...))
			assert.Equal(t, fmt.Appendf([]byte("pre "), tt.format, tt.args...), Appendf([]byte("pre "), tt.format, tt.args...))
		})
	}
}

// TestErrorfWraps checks the wrapping contract of fmt.Errorf.
func TestErrorfWraps(t *testing.T) {
	base := errors.New("base")
	other := io.ErrUnexpectedEOF

	one := Errorf("op %q: %w", "x", base)
	assert.Equal(t, fmt.Errorf("op %q: %w", "x", base).Error(), one.Error())
	assert.ErrorIs(t, one, base)
	assert.Same(t, base, errors.Unwrap(one))

	two := Errorf("%w then %w", base, other)
	assert.Equal(t, "base then unexpected EOF", two.Error())
	assert.ErrorIs(t, two, base)
	assert.ErrorIs(t, two, other)
	assert.Nil(t, errors.Unwrap(two))

	none := Errorf("just %d", 3)
	assert.Equal(t, "just 3", none.Error())
	assert.Nil(t, errors.Unwrap(none))

	type typed struct{ error }
	var target typed
	require.ErrorAs(t, Errorf("ctx: %w", typed{base}), &target)

	// %w of a nil error is fmt's bad-verb text; %w outside Errorf is marked
	// too (fmt adds the operand's type, which needs reflection).
	assert.Equal(t, fmt.Errorf("x %w", nil).Error(), Errorf("x %w", nil).Error())
	assert.Equal(t, "x %!w(base)", Sprintf("x %w", base))
}

// TestUnsupported: a type outside the list is marked, not guessed.
func TestUnsupported(t *testing.T) {
	assert.Equal(t, "%!v(unsupported)", Sprintf("%v", struct{}{}))
}

type codeErr struct{ code int }

func (e *codeErr) Error() string { return "code" }

// asProxy answers As for *codeErr without being one.
type asProxy struct{}

func (asProxy) Error() string { return "proxy" }
func (asProxy) As(target any) bool {
	if p, ok := target.(**codeErr); ok {
		*p = &codeErr{code: 7}
		return true
	}
	return false
}

// TestAsMatchesErrors checks As against errors.As on wrapped, joined,
// proxied and absent targets: the same answer and the same target.
func TestAsMatchesErrors(t *testing.T) {
	c := &codeErr{code: 3}
	cases := []struct {
		name string
		err  error
	}{
		{"nil", nil},
		{"plain", errors.New("x")},
		{"itself", c},
		{"wrapped", fmt.Errorf("a: %w", c)},
		{"wrapped twice", Errorf("b: %w", fmt.Errorf("a: %w", c))},
		{"joined", errors.Join(errors.New("x"), c)},
		{"multi %w", fmt.Errorf("%w and %w", io.EOF, c)},
		{"As method", fmt.Errorf("p: %w", asProxy{})},
		{"absent in join", errors.Join(io.EOF, nil)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var want, got *codeErr
			wantOK := errors.As(tc.err, &want)
			gotOK := As(tc.err, &got)
			assert.Equal(t, wantOK, gotOK)
			assert.Equal(t, want, got)
		})
	}
	t.Run("target kept on miss", func(t *testing.T) {
		kept := &codeErr{code: 1}
		target := kept
		assert.False(t, As(io.EOF, &target))
		assert.Same(t, kept, target)
	})
}
