//go:build js

package main

import (
	"errors"
	"sync"
	"syscall/js"
	"time"
	"unsafe"

	"github.com/mcpwasm/mcpwasm/core"
	schema "github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// taskOptions are callToolAsTask's options.
type taskOptions struct {
	TTLMs     *schema.Millis `json:"ttlMs"`
	TimeoutMs *schema.Millis `json:"timeoutMs"`
}

var taskOptionsObj = schema.Object{Type: "struct { TTLMs *bridge.Millis \"json:\\\"ttlMs\\\"\"; TimeoutMs *bridge.Millis \"json:\\\"timeoutMs\\\"\" }", Members: []schema.ObjectMember{
	{Name: "ttlMs", Kind: schema.KMillis, Off: unsafe.Offsetof(taskOptions{}.TTLMs)},
	{Name: "timeoutMs", Kind: schema.KMillis, Off: unsafe.Offsetof(taskOptions{}.TimeoutMs)},
}}

// DecodeSchema decodes o strictly.
func (o *taskOptions) DecodeSchema(d *schema.Decoder, val []byte) error {
	return d.DecodeObject(val, &taskOptionsObj, unsafe.Pointer(o))
}

// waitOptions are taskWait's options.
type waitOptions struct {
	MaxPollIntervalMs *schema.Millis `json:"maxPollIntervalMs"`
}

var waitOptionsObj = schema.Object{Type: "struct { MaxPollIntervalMs *bridge.Millis \"json:\\\"maxPollIntervalMs\\\"\" }", Members: []schema.ObjectMember{
	{Name: "maxPollIntervalMs", Kind: schema.KMillis, Off: unsafe.Offsetof(waitOptions{}.MaxPollIntervalMs)},
}}

// DecodeSchema decodes o strictly.
func (o *waitOptions) DecodeSchema(d *schema.Decoder, val []byte) error {
	return d.DecodeObject(val, &waitOptionsObj, unsafe.Pointer(o))
}

// The tasks API of the glue (js/src/client.js): task handles live in a
// table here, named by a ref the glue keeps in its Task object and frees
// with taskFree (or its FinalizationRegistry). These functions are not on
// the hot path, so they use the js.FuncOf style with JSON strings.

// maxTaskRefs bounds the task handles one instance keeps.
const maxTaskRefs = 4096

var errTooManyTasks = errf.Errorf("mcpwasm: more than %d task handles are open (free the ones you no longer need)", maxTaskRefs)

type taskTable struct {
	mu   sync.Mutex
	next int
	m    map[int]*core.Task
}

func (tt *taskTable) add(t *core.Task) (int, error) {
	tt.mu.Lock()
	if tt.m == nil {
		tt.m = map[int]*core.Task{}
	}
	if len(tt.m) >= maxTaskRefs {
		tt.mu.Unlock()
		return 0, errTooManyTasks
	}
	tt.next++
	ref := tt.next
	tt.m[ref] = t
	tt.mu.Unlock()
	return ref, nil
}

func (tt *taskTable) get(v js.Value) (*core.Task, error) {
	if v.Type() != js.TypeNumber {
		return nil, errors.New("mcpwasm: unknown task handle")
	}
	h := v.Int()
	tt.mu.Lock()
	t := tt.m[h]
	tt.mu.Unlock()
	if t == nil {
		return nil, errors.New("mcpwasm: unknown task handle (freed?)")
	}
	return t, nil
}

// appendState appends st as the JS API shows a task state (durations in
// milliseconds), encoded by the bridge.
func appendState(dst []byte, st core.TaskState) []byte {
	s := schema.NewHostTaskState(st, time.Millisecond)
	return s.Append(dst, schema.TaskStateJS)
}

// handleJSON is what a task-creating call resolves with: the ref, the
// state, and (for a call the server answered directly) the result.
func (b *bridge) handleJSON(t *core.Task) (any, error) {
	ref, err := b.tasks.add(t)
	if err != nil {
		return nil, err
	}
	w := jsonscan.NewObjectWriter(nil)
	w.Int("ref", int64(ref))
	if raw := t.RawResult(); raw != nil {
		w.Raw("result", schema.CompactRaw(raw))
	}
	w.Raw("state", appendState(nil, t.State()))
	return rawjson.RawMessage(w.Bytes()), nil
}

// callToolAsTask(handle, paramsJSON, optionsJSON, signal, resolve, reject):
// resolves with JSON {ref, state, result?}. Options: {ttl, timeout} in ms.
func (b *bridge) callToolAsTask(o *op) (any, error) {
	var p core.CallToolParams
	if err := schema.UnmarshalCallToolParams(jsonArg(o.arg(1)), &p); err != nil {
		return nil, errf.Errorf("mcpwasm: callToolAsTask params: %w", err)
	}
	var opts taskOptions
	if raw := jsonArg(o.arg(2)); raw != nil {
		if err := schema.Decode(raw, &opts, "callToolAsTask options"); err != nil {
			return nil, err
		}
	}
	topts := &core.TaskOptions{TTL: max(opts.TTLMs.Duration(), 0)}
	if opts.TimeoutMs != nil {
		topts.Call = &core.CallOptions{Timeout: schema.Timeout(opts.TimeoutMs)}
	}
	raw, err := core.AppendWireJSON(nil, &p)
	if err != nil {
		return nil, errf.Errorf("mcpwasm: callToolAsTask params: %w", err)
	}
	t, err := o.s.CallToolAsTaskRaw(o.ctx, raw, topts)
	if err != nil {
		return nil, err
	}
	return b.handleJSON(t)
}

// getTask(handle, taskId, signal, resolve, reject): resolves with JSON
// {ref, state}: a task resumed by id.
func (b *bridge) getTask(o *op) (any, error) {
	t, err := o.s.GetTask(o.ctx, o.arg(1).String())
	if err != nil {
		return nil, err
	}
	return b.handleJSON(t)
}

// listTasks(handle, paramsJSON, signal, resolve, reject): resolves with
// JSON {tasks: [state], nextCursor?}.
func (b *bridge) listTasks(o *op) (any, error) {
	var p core.PaginatedParams
	if params := jsonArg(o.arg(1)); params != nil {
		if err := schema.UnmarshalPaginatedParams(params, &p); err != nil {
			return nil, errf.Errorf("mcpwasm: listTasks params: %w", err)
		}
	}
	r, err := o.s.ListTasks(o.ctx, &p)
	if err != nil {
		return nil, err
	}
	return rawjson.RawMessage(schema.AppendTaskList(nil, r, schema.TaskStateJS, time.Millisecond)), nil
}

// taskWait(ref, optionsJSON, onStatus, signal, resolve, reject): resolves
// with the final result JSON. Options: {maxPollInterval} in ms.
// onStatus(stateJSON) receives each new state.
func (b *bridge) taskWait(o *op) (any, error) {
	var opts waitOptions
	if raw := jsonArg(o.arg(1)); raw != nil {
		if err := schema.Decode(raw, &opts, "wait options"); err != nil {
			return nil, err
		}
	}
	wopts := &core.TaskWaitOptions{MaxPollInterval: max(opts.MaxPollIntervalMs.Duration(), 0)}
	if onStatus := o.arg(2); onStatus.Type() == js.TypeFunction {
		wopts.OnStatus = func(st core.TaskState) {
			b2 := appendState(nil, st)
			defer func() { _ = recover() }()
			onStatus.Invoke(string(b2))
		}
	}
	t := o.t
	_, err := t.Wait(o.ctx, wopts)
	raw := t.RawResult()
	if err != nil {
		return nil, schema.WithResult(err, raw)
	}
	return raw, nil
}

// taskRefresh(ref, signal, resolve, reject): one tasks/get; resolves with
// the state JSON.
func (b *bridge) taskRefresh(o *op) (any, error) {
	st, err := o.t.Refresh(o.ctx)
	if err != nil {
		return nil, err
	}
	return rawjson.RawMessage(appendState(nil, st)), nil
}

// taskCancel(ref, signal, resolve, reject): tasks/cancel; resolves with the
// state JSON.
func (b *bridge) taskCancel(o *op) (any, error) {
	if err := o.t.Cancel(o.ctx); err != nil {
		return nil, err
	}
	return rawjson.RawMessage(appendState(nil, o.t.State())), nil
}

// taskState(ref) → state JSON (synchronously), or an Error.
func (b *bridge) taskState(o *op) (any, error) {
	t, err := b.tasks.get(o.arg(0))
	if err != nil {
		return nil, err
	}
	return string(appendState(nil, t.State())), nil
}

// taskFree(ref) forgets a task handle (the task on the server is not
// affected).
func (b *bridge) taskFree(o *op) (any, error) {
	if v := o.arg(0); v.Type() == js.TypeNumber {
		b.tasks.mu.Lock()
		delete(b.tasks.m, v.Int())
		b.tasks.mu.Unlock()
	}
	return nil, nil
}
