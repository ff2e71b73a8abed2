//go:build wasip1 && mcpwasm_debug

package main

// The debug export: only in builds with the tag mcpwasm_debug (the tests
// of wasm/wasihost build the module so), so that a production module
// cannot be made to trap on purpose.

import (
	"runtime"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
	"github.com/mcpwasm/mcpwasm/wasm/wasip1/internal/guest"
)

// debugTrap makes the instance trap the way kind says (abi.TrapPanic,
// abi.TrapDeadlock), for tests of a host's trap handling.
//
//go:wasmexport mcpwasm_debug_trap
func debugTrap(kind uint32) int32 {
	switch kind {
	case abi.TrapPanic:
		go func() { panic("mcpwasm: mcpwasm_debug_trap(TrapPanic)") }()
		for {
			runtime.Gosched() // the panicking goroutine ends the instance
		}
	case abi.TrapDeadlock:
		<-make(chan struct{})
	}
	return status(0, &guest.Error{Status: abi.StatusInvalid, Msg: errf.Sprintf("unknown trap kind %d", kind)})
}
