package abi_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestPack(t *testing.T) {
	for _, c := range []struct{ ptr, n uint32 }{{0, 0}, {1, 2}, {0x10000, 5}, {0xffffffff, 0xffffffff}} {
		t.Run(fmt.Sprintf("%#x+%d", c.ptr, c.n), func(t *testing.T) {
			ptr, n := abi.Unpack(abi.Pack(c.ptr, c.n))
			assert.Equal(t, c.ptr, ptr)
			assert.Equal(t, c.n, n)
		})
	}
}

func TestStatusText(t *testing.T) {
	for code, want := range map[int32]string{
		abi.StatusOK: "ok", 7: "ok", abi.StatusInvalid: "invalid argument", abi.StatusNotFound: "not found",
		abi.StatusClosed: "closed", abi.StatusInternal: "internal error", -9: "status -9",
	} {
		assert.Equal(t, want, abi.StatusText(code), "status %d", code)
	}
}

func TestEventJSON(t *testing.T) {
	var events []abi.Event
	require.NoError(t, json.Unmarshal([]byte(`[
		{"type":"result","op":3,"error":{"kind":"output-schema","message":"m"},"result":{"content":[]}},
		{"type":"request","id":9,"client":1,"method":"roots/list"}
	]`), &events))
	require.Len(t, events, 2)
	assert.Equal(t, abi.KindOutputSchema, events[0].Error.Kind)
	assert.JSONEq(t, `{"content":[]}`, string(events[0].Result))
	assert.Equal(t, abi.MethodListRoots, events[1].Method)
	b, err := json.Marshal(&abi.Event{Type: abi.EventCancel, ID: 9})
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"cancel","id":9}`, string(b), "empty members are left out")
}

// Example decodes the buffer an export such as mcpwasm_poll returns: one
// i64 packing the guest pointer and the length.
func Example() {
	ret := abi.Pack(0x12340, 42) // what mcpwasm_poll returned
	ptr, n := abi.Unpack(ret)
	fmt.Printf("read %d bytes at %#x\n", n, ptr)
	// Output: read 42 bytes at 0x12340
}
