package rawjson

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type point struct{ X int }

type custom struct{}

func (custom) MarshalJSON() ([]byte, error) { return []byte(`{"c":1}`), nil }

type sink struct{ got string }

func (s *sink) UnmarshalJSON(b []byte) error { s.got = string(b); return nil }

// TestTypesKeepJSONMeaning checks RawMessage's and Number's methods (those
// of json.RawMessage and json.Number) in whichever build runs the test.
func TestTypesKeepJSONMeaning(t *testing.T) {
	b, err := RawMessage(nil).MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))
	b, err = RawMessage(`{"a":1}`).MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"a":1}`, string(b))

	src := []byte(`[1,2]`)
	var m RawMessage
	require.NoError(t, m.UnmarshalJSON(src))
	src[1] = '9'
	assert.Equal(t, `[1,2]`, string(m), "UnmarshalJSON copies its input")
	var nilp *RawMessage
	assert.Error(t, nilp.UnmarshalJSON(src))

	n := Number("-12")
	assert.Equal(t, "-12", n.String())
	i, err := n.Int64()
	require.NoError(t, err)
	assert.Equal(t, int64(-12), i)
	f, err := Number("2.5e3").Float64()
	require.NoError(t, err)
	assert.Equal(t, 2500.0, f)
	_, err = Number("x").Float64()
	assert.Error(t, err)
}

// TestMarshalAndUnmarshal checks what the build's Marshal and Unmarshal
// take: values with JSON methods always, other Go values only with
// reflection (elsewhere ErrUnsupported).
func TestMarshalAndUnmarshal(t *testing.T) {
	b, err := Marshal(custom{})
	require.NoError(t, err)
	assert.Equal(t, `{"c":1}`, string(b))
	b, err = Marshal(RawMessage(`[true]`))
	require.NoError(t, err)
	assert.Equal(t, `[true]`, string(b))

	var s sink
	require.NoError(t, Unmarshal([]byte(`"x"`), &s))
	assert.Equal(t, `"x"`, s.got)

	b, err = Marshal(point{X: 1})
	var p point
	uerr := Unmarshal([]byte(`{"X":2}`), &p)
	if Reflection {
		require.NoError(t, err)
		assert.Equal(t, `{"X":1}`, string(b))
		require.NoError(t, uerr)
		assert.Equal(t, 2, p.X)
	} else {
		assert.True(t, errors.Is(err, ErrUnsupported), "%v", err)
		assert.True(t, errors.Is(uerr, ErrUnsupported), "%v", uerr)
		assert.Equal(t, 0, p.X)
	}
}
