//go:build wasip1

package main

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
	"github.com/mcpwasm/mcpwasm/wasm/wasip1/internal/guest"
)

func main() {}

// instance is the reactor's state. Exports are free functions, so it is a
// package variable; the host serialises the calls.
var instance = struct {
	g *guest.Guest

	mu      sync.Mutex
	buffers map[uint32][]byte // host-owned buffers from mcpwasm_alloc
	out     []byte            // the guest-owned buffer last returned
	lastErr string
}{
	g:       guest.New(wasiHost{}),
	buffers: map[uint32][]byte{},
}

// Host imports.

//go:wasmimport mcpwasm http_request
func hostHTTPRequest(handle uint32, head unsafe.Pointer, headLen uint32, body unsafe.Pointer, bodyLen uint32)

//go:wasmimport mcpwasm http_read
func hostHTTPRead(handle uint32)

//go:wasmimport mcpwasm http_close
func hostHTTPClose(handle uint32)

// wasiHost implements guest.Host with the imports.
type wasiHost struct{}

func (wasiHost) HTTPRequest(handle uint32, head, body []byte) {
	hostHTTPRequest(handle, unsafe.Pointer(unsafe.SliceData(head)), uint32(len(head)), unsafe.Pointer(unsafe.SliceData(body)), uint32(len(body)))
	runtime.KeepAlive(head)
	runtime.KeepAlive(body)
}

func (wasiHost) HTTPRead(handle uint32)  { hostHTTPRead(handle) }
func (wasiHost) HTTPClose(handle uint32) { hostHTTPClose(handle) }

// Memory.

func ptrOf(b []byte) uint32 {
	if len(b) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}

// take returns the host buffer (ptr, n) and makes it the guest's.
func take(ptr, n uint32) ([]byte, error) {
	if ptr == 0 && n == 0 {
		return nil, nil
	}
	instance.mu.Lock()
	defer instance.mu.Unlock()
	b, ok := instance.buffers[ptr]
	if !ok {
		return nil, &guest.Error{Status: abi.StatusInvalid, Msg: errf.Sprintf("buffer %#x was not allocated with mcpwasm_alloc (or was already passed or freed)", ptr)}
	}
	delete(instance.buffers, ptr)
	if int(n) > len(b) {
		return nil, &guest.Error{Status: abi.StatusInvalid, Msg: errf.Sprintf("length %d exceeds the %d bytes allocated at %#x", n, len(b), ptr)}
	}
	return b[:n:n], nil
}

// give returns a guest-owned buffer to the host, valid until its next
// export call.
func give(b []byte) uint64 {
	instance.mu.Lock()
	instance.out = b
	instance.mu.Unlock()
	return abi.Pack(ptrOf(b), uint32(len(b)))
}

// status turns a result into the i32 of an export, remembering a failure.
func status(id uint32, err error) int32 {
	if err == nil {
		return int32(id)
	}
	code := abi.StatusInternal
	var e *guest.Error
	if errf.As(err, &e) {
		code = e.Status
	}
	instance.mu.Lock()
	instance.lastErr = guest.ErrorMessage(err)
	instance.mu.Unlock()
	return code
}

// guard turns a panic while serving an export into StatusInternal.
func guard(code *int32) {
	if r := recover(); r != nil {
		*code = status(0, &guest.Error{Status: abi.StatusInternal, Msg: errf.Sprintf("internal error: %v", r)})
	}
}

// withInput runs f with the consumed input buffer (ptr, n).
func withInput(ptr, n uint32, f func([]byte) (uint32, error)) (code int32) {
	defer guard(&code)
	b, err := take(ptr, n)
	if err != nil {
		return status(0, err)
	}
	return status(f(b))
}

//go:wasmexport mcpwasm_abi_version
func abiVersion() uint32 { return abi.Version }

//go:wasmexport mcpwasm_alloc
func alloc(size uint32) uint32 {
	if size == 0 {
		return 0
	}
	b := make([]byte, size)
	p := ptrOf(b)
	instance.mu.Lock()
	instance.buffers[p] = b
	instance.mu.Unlock()
	return p
}

//go:wasmexport mcpwasm_free
func free(ptr uint32) int32 {
	instance.mu.Lock()
	_, ok := instance.buffers[ptr]
	delete(instance.buffers, ptr)
	instance.mu.Unlock()
	if !ok && ptr != 0 {
		return status(0, &guest.Error{Status: abi.StatusNotFound, Msg: errf.Sprintf("buffer %#x is not allocated", ptr)})
	}
	return abi.StatusOK
}

//go:wasmexport mcpwasm_last_error
func lastError() uint64 {
	instance.mu.Lock()
	msg := instance.lastErr
	instance.mu.Unlock()
	return give([]byte(msg))
}

//go:wasmexport mcpwasm_client_new
func clientNew(ptr, n uint32) int32 {
	return withInput(ptr, n, instance.g.NewClient)
}

//go:wasmexport mcpwasm_client_free
func clientFree(client uint32) (code int32) {
	defer guard(&code)
	return status(0, instance.g.FreeClient(client))
}

//go:wasmexport mcpwasm_set_roots
func setRoots(client, ptr, n uint32) int32 {
	return withInput(ptr, n, func(b []byte) (uint32, error) { return instance.g.SetRoots(client, b) })
}

//go:wasmexport mcpwasm_connect
func connect(client, ptr, n uint32) int32 {
	return withInput(ptr, n, func(b []byte) (uint32, error) { return instance.g.Connect(client, b) })
}

//go:wasmexport mcpwasm_request
func request(session, ptr, n uint32) int32 {
	return withInput(ptr, n, func(b []byte) (uint32, error) { return instance.g.Request(session, b) })
}

//go:wasmexport mcpwasm_cancel
func cancel(op uint32) (code int32) {
	defer guard(&code)
	return status(0, instance.g.Cancel(op))
}

//go:wasmexport mcpwasm_answer
func answer(id, ptr, n uint32) int32 {
	return withInput(ptr, n, func(b []byte) (uint32, error) { return 0, instance.g.Answer(id, b) })
}

//go:wasmexport mcpwasm_close
func closeSession(session uint32) (code int32) {
	defer guard(&code)
	return status(instance.g.Close(session))
}

//go:wasmexport mcpwasm_poll
func poll() uint64 {
	return give(instance.g.Poll())
}

//go:wasmexport mcpwasm_http_response
func httpResponse(handle, ptr, n uint32) int32 {
	return withInput(ptr, n, func(b []byte) (uint32, error) { return 0, instance.g.HTTPResponse(handle, b) })
}

//go:wasmexport mcpwasm_http_body
func httpBody(handle, ptr, n uint32) int32 {
	return withInput(ptr, n, func(b []byte) (uint32, error) { return 0, instance.g.HTTPBody(handle, b) })
}

//go:wasmexport mcpwasm_http_end
func httpEnd(handle, ptr, n uint32) int32 {
	return withInput(ptr, n, func(b []byte) (uint32, error) { return 0, instance.g.HTTPEnd(handle, b) })
}
