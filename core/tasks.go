package core

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// This file is the typed tasks API of both eras: the experimental tasks of
// 2025-11-25 (task-augmented tools/call, tasks/get, tasks/result,
// tasks/list, tasks/cancel, notifications/tasks/status) and the
// io.modelcontextprotocol/tasks extension of 2026-07-28 (a resultType
// "task" result, tasks/get with inlined result/error/inputRequests,
// tasks/update, tasks/cancel, notifications/tasks on subscriptions/listen).
// One handle, Task, hides the difference.

// Task methods, notifications and identifiers.
const (
	MethodGetTask    = "tasks/get"
	MethodTaskResult = "tasks/result" // 2025-11-25 only
	MethodListTasks  = "tasks/list"   // 2025-11-25 only
	MethodCancelTask = "tasks/cancel"
	MethodUpdateTask = "tasks/update" // 2026-07-28 extension only

	// NotificationTaskStatus is the 2025-11-25 status notification.
	NotificationTaskStatus = "notifications/tasks/status"
	// NotificationTasks is the 2026-07-28 extension's status notification,
	// delivered on a subscriptions/listen stream that asked for taskIds.
	NotificationTasks = "notifications/tasks"

	// ExtensionTasks identifies the 2026-07-28 tasks extension.
	ExtensionTasks = "io.modelcontextprotocol/tasks"
	// ResultTypeTask marks a modern result that is a task handle.
	ResultTypeTask = "task"
	// MetaRelatedTask associates a message with a task.
	MetaRelatedTask = "io.modelcontextprotocol/related-task"
)

// Task statuses.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// Task polling defaults.
const (
	// DefaultTaskPollInterval is used when the server suggests none.
	DefaultTaskPollInterval = time.Second
	// MinTaskPollInterval is the shortest wait between two polls, whatever
	// the server suggests.
	MinTaskPollInterval = 10 * time.Millisecond
	// DefaultMaxTaskPollInterval caps the server's suggestion and the
	// backoff after failed polls.
	DefaultMaxTaskPollInterval = 30 * time.Second
	// DefaultTaskPollRetries bounds the consecutive failed polls (transport
	// errors, timeouts) Wait tolerates before it gives up.
	DefaultTaskPollRetries = 5
)

var (
	// ErrTaskCancelled is returned by Task.Wait and Task.Result when the
	// task ended cancelled.
	ErrTaskCancelled = errors.New("core: task was cancelled")
	// ErrTaskPending is returned by Task.Result before the task ended.
	ErrTaskPending = errors.New("core: task has not finished")
	// ErrTaskCreated is wrapped by *TaskCreatedError: CallTool with
	// CallOptions.NoTaskWait got a task instead of a result.
	ErrTaskCreated = errors.New("core: the server answered with a task")
)

// TaskCreatedError is returned by CallTool with CallOptions.NoTaskWait when
// the server answered with a task; Task is its handle.
type TaskCreatedError struct {
	Task *Task
}

func (e *TaskCreatedError) Error() string {
	return errf.Sprintf("%v: %s", ErrTaskCreated, e.Task.ID())
}

func (e *TaskCreatedError) Unwrap() error { return ErrTaskCreated }

// TaskState is a snapshot of a task as the server last described it.
type TaskState struct {
	ID            string
	Status        string
	StatusMessage string
	CreatedAt     string
	LastUpdatedAt string
	// TTL is the retention from creation; nil means unlimited.
	TTL *time.Duration
	// PollInterval is the server's suggested polling interval; 0 if none.
	PollInterval time.Duration
}

// Terminal reports whether the status is final (completed, failed or
// cancelled).
func (st *TaskState) Terminal() bool { return terminalStatus(st.Status) }

//go:noinline
func terminalStatus(s string) bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

// wireTask is the Task shape of both eras, with the modern extension's
// inlined members.
type wireTask struct {
	TaskID         string                   `json:"taskId"`
	Status         string                   `json:"status"`
	StatusMessage  string                   `json:"statusMessage,omitempty"`
	CreatedAt      string                   `json:"createdAt,omitempty"`
	LastUpdatedAt  string                   `json:"lastUpdatedAt,omitempty"`
	TTL            *int64                   `json:"ttl,omitempty"`
	TTLMs          *int64                   `json:"ttlMs,omitempty"`
	PollInterval   *int64                   `json:"pollInterval,omitempty"`
	PollIntervalMs *int64                   `json:"pollIntervalMs,omitempty"`
	InputRequests  map[string]*InputRequest `json:"inputRequests,omitempty"`
	Result         RawMessage               `json:"result,omitempty"`
	Error          *jsonrpc.Error           `json:"error,omitempty"`
}

func (w *wireTask) state() TaskState {
	st := TaskState{ID: w.TaskID, Status: w.Status, StatusMessage: w.StatusMessage, CreatedAt: w.CreatedAt, LastUpdatedAt: w.LastUpdatedAt}
	ttl := w.TTLMs
	if ttl == nil {
		ttl = w.TTL
	}
	if ttl != nil {
		d := time.Duration(*ttl) * time.Millisecond
		st.TTL = &d
	}
	poll := w.PollIntervalMs
	if poll == nil {
		poll = w.PollInterval
	}
	if poll != nil && *poll > 0 {
		st.PollInterval = time.Duration(*poll) * time.Millisecond
	}
	return st
}

func (w *wireTask) validate() error {
	if w.TaskID == "" {
		return wrap(ErrInvalidResult, "task without taskId")
	}
	switch w.Status {
	case TaskWorking, TaskInputRequired, TaskCompleted, TaskFailed, TaskCancelled:
		return nil
	}
	return errf.Errorf("%w: task %s has unknown status %q", ErrInvalidResult, w.TaskID, w.Status)
}

// ListTasksResult is the result of tasks/list (2025-11-25).
type ListTasksResult struct {
	Tasks      []TaskState
	NextCursor string
}

// TaskOptions tune Session.CallToolAsTask; nil means the defaults.
type TaskOptions struct {
	// TTL is the retention asked of a 2025-11-25 server (task.ttl); 0
	// leaves it to the server. 2026-07-28 servers choose it themselves.
	TTL time.Duration
	// Call tunes the tools/call request that creates the task.
	Call *CallOptions
}

// TaskWaitOptions tune Task.Wait; nil means the defaults.
type TaskWaitOptions struct {
	// MaxPollInterval caps the server's suggested interval and the
	// backoff. Default DefaultMaxTaskPollInterval.
	MaxPollInterval time.Duration
	// MaxRetries bounds consecutive failed polls. Default
	// DefaultTaskPollRetries; negative means none are retried.
	MaxRetries int
	// OnStatus is called with each new state the client observes (from a
	// poll or a status notification), on the waiting goroutine.
	OnStatus func(TaskState)
}

// Task is the handle of a task on the server: its last known state, a way
// to wait for its result, and cancellation. It is safe for concurrent use;
// concurrent Waits share the polls of one.
type Task struct {
	s    *Session
	tool string // the tool called, for output validation ("" when resumed)

	mu       sync.Mutex
	st       TaskState
	final    bool // the outcome below is set
	result   *CallToolResult
	raw      RawMessage // the final result as the server sent it
	err      error
	answered map[string]bool // modern inputRequests keys already answered
	notes    chan wireTask   // status notifications for this task (buffered)

	last    *wireTask     // the last state observed, with its inlined payload (modern)
	waiting chan struct{} // one Wait polls at a time (buffered, 1)
}

// ID returns the task id ("" for a call the server answered directly).
//
//go:noinline
func (t *Task) ID() string { return t.State().ID }

// Status returns the last known status.
func (t *Task) Status() string { return t.State().Status }

// StatusMessage returns the last known status message.
func (t *Task) StatusMessage() string { return t.State().StatusMessage }

// PollInterval returns the server's suggested polling interval (0 if none).
func (t *Task) PollInterval() time.Duration { return t.State().PollInterval }

// State returns the last known state.
func (t *Task) State() TaskState {
	t.mu.Lock()
	v := t.st
	t.mu.Unlock()
	return v
}

// Result returns the outcome once the task ended: the final CallToolResult,
// or the error it failed with (an *RPCError for a failed task,
// ErrTaskCancelled). Before that it returns ErrTaskPending.
func (t *Task) Result() (*CallToolResult, error) {
	t.mu.Lock()
	r, err := t.result, t.err
	if !t.final {
		r, err = nil, ErrTaskPending
	}
	t.mu.Unlock()
	return r, err
}

func (s *Session) newTask(tool string, w *wireTask) *Task {
	t := &Task{s: s, tool: tool, st: w.state(), last: w, answered: map[string]bool{}, notes: make(chan wireTask, 8), waiting: make(chan struct{}, 1)}
	return t
}

// observe records a new state; stale updates (older lastUpdatedAt) and a
// terminal task reported as running again are ignored (the latter is a
// protocol violation reported as an error).
func (t *Task) observe(w *wireTask, opts *TaskWaitOptions) error {
	t.mu.Lock()
	cur := t.st
	if terminalStatus(cur.Status) && !terminalStatus(w.Status) {
		t.mu.Unlock()
		return errf.Errorf("%w: task %s went from %s back to %s", ErrInvalidResult, cur.ID, cur.Status, w.Status)
	}
	if older(w.LastUpdatedAt, cur.LastUpdatedAt) && !terminalStatus(w.Status) {
		t.mu.Unlock()
		return nil // an older snapshot than the one we have
	}
	next := w.state()
	if next.ID == "" {
		next.ID = cur.ID
	}
	changed := next.Status != cur.Status || next.StatusMessage != cur.StatusMessage || next.LastUpdatedAt != cur.LastUpdatedAt
	t.st = next
	t.last = w
	t.mu.Unlock()
	if changed && opts != nil && opts.OnStatus != nil {
		opts.OnStatus(next)
	}
	return nil
}

// older reports whether timestamp a is before b (ISO 8601); false when
// either is missing or unparsable.
func older(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	// jsonscan.ParseTime reads RFC 3339 without time's layout engine,
	// which time.Parse would link into the WebAssembly modules.
	ta, err1 := jsonscan.ParseTime(a)
	tb, err2 := jsonscan.ParseTime(b)
	return err1 == nil && err2 == nil && ta.Before(tb)
}

// actionable returns the last observed state if Wait can act on it without
// a poll: a legacy task that ended or needs input (tasks/result), a modern
// one whose payload (result, error, input requests) came with it.
func (t *Task) actionable() *wireTask {
	t.mu.Lock()
	w := t.last
	if w != nil && !w.actionable(t.s.Era() == EraModern) {
		w = nil
	}
	t.mu.Unlock()
	return w
}

// actionable is Task.actionable's test of one state.
func (w *wireTask) actionable(modern bool) bool {
	if !modern {
		return terminalStatus(w.Status) || w.Status == TaskInputRequired
	}
	switch {
	case w.Status == TaskCancelled,
		w.Status == TaskCompleted && len(w.Result) > 0,
		w.Status == TaskFailed && w.Error != nil,
		w.Status == TaskInputRequired && len(w.InputRequests) > 0:
		return true
	}
	return false
}

func (t *Task) finish(r *CallToolResult, err error) (*CallToolResult, error) {
	t.mu.Lock()
	if !t.final {
		t.final, t.result, t.err = true, r, err
	}
	r, err = t.result, t.err
	t.mu.Unlock()
	return r, err
}

// tasksMeta returns the _meta override that declares the tasks extension
// on one modern request, for callers that did not opt in client-wide.
func (s *Session) tasksMeta(opts *CallOptions) *CallOptions {
	o := CallOptions{}
	if opts != nil {
		o = *opts
	}
	if s.Era() != EraModern || s.client.opts.Tasks {
		return &o
	}
	caps, _ := jsonscan.Decode(s.capsJSON) // ours: an object, or null if it failed
	if caps == nil {
		caps = map[string]any{}
	}
	capsMap, _ := caps.(map[string]any)
	if capsMap == nil {
		capsMap = map[string]any{}
	}
	ext, _ := capsMap["extensions"].(map[string]any)
	if ext == nil {
		ext = map[string]any{}
	}
	ext[ExtensionTasks] = map[string]any{}
	capsMap["extensions"] = ext
	meta := Meta{}
	for k, v := range o.Meta {
		meta[k] = v
	}
	meta[MetaClientCapabilities] = capsMap
	o.Meta = meta
	return &o
}

// legacyTaskTools reports whether a legacy server accepts task-augmented
// tools/call (capabilities.tasks.requests.tools.call). The answer is kept
// per capabilities object (they change only when the session is
// re-initialized), since CallTool asks on every call.
func (s *Session) legacyTaskTools() bool {
	s.mu.Lock()
	caps := s.serverCaps
	s.mu.Unlock()
	if caps == nil || len(caps.Tasks) == 0 {
		return false
	}
	tw := &s.taskWatch
	tw.mu.Lock()
	if tw.caps != caps {
		tw.caps = caps
		var t tasksToolCall
		ok := decodeShape(caps.Tasks, &t) == nil
		call := t.Requests.Tools.Call
		tw.capsTools = ok && len(call) > 0 && string(call) != "null"
	}
	v := tw.capsTools
	tw.mu.Unlock()
	return v
}

// serverHasTaskList reports whether a legacy server advertises tasks/list.
func (s *Session) serverHasTaskList() bool {
	s.mu.Lock()
	caps := s.serverCaps
	s.mu.Unlock()
	if caps == nil || len(caps.Tasks) == 0 {
		return false
	}
	var t tasksList
	ok := decodeShape(caps.Tasks, &t) == nil
	return ok && len(t.List) > 0 && string(t.List) != "null"
}

// taskCreated reports whether a raw tools/call result is a task handle and
// decodes it.
func taskCreated(era Era, raw RawMessage) (*wireTask, bool, error) {
	if era == EraModern {
		return modernTaskCreated(raw, topMember(raw, "resultType"))
	}
	// A legacy task result has a task member: a cheap test of the
	// top-level names before decoding.
	if !legacyMayBeTask(raw) {
		return nil, false, nil
	}
	var r taskCreatedWire
	if err := decodeParamsOf(raw, &r); err != nil || r.Task == nil || len(r.Content) > 0 {
		return nil, false, nil
	}
	return r.Task, true, r.Task.validate()
}

// legacyMayBeTask is the test before a legacy tools/call result is decoded
// as a task handle: it has a top-level "task" member (or a member name
// written with escapes, or it is malformed on the way: then the decoder
// decides). A result whose "content" is a non-empty array is a tool's
// answer, never a task handle (taskCreated), so the walk stops there
// without skipping the content — the bulk of a big result, which a search
// for a later "task" name would have scanned a second time.
func legacyMayBeTask(raw RawMessage) bool {
	found := false
	malformed := walkTop(raw, func(name []byte, val int) bool {
		n := name[1:max(len(name)-1, 1)]
		if string(n) == "content" && raw[val] == '[' {
			if j := jsonscan.SkipSpace(raw, val+1); j < len(raw) && raw[j] != ']' {
				return true // found stays false
			}
		}
		found = string(n) == "task" || bytes.IndexByte(n, '\\') >= 0
		return found
	})
	return found || malformed
}

// modernTaskCreated is taskCreated of a 2026-07-28 result whose top-level
// resultType (raw JSON, nil when absent) is known already.
func modernTaskCreated(raw, resultType RawMessage) (*wireTask, bool, error) {
	if !jsonscan.RawStringIs(resultType, ResultTypeTask) {
		return nil, false, nil
	}
	var w wireTask
	if err := decodeWireTaskJSON(raw, &w); err != nil {
		return nil, true, wrapWhat(ErrInvalidResult, "task result", err)
	}
	return &w, true, w.validate()
}

// taskResult is the hook of the request pipeline: a tools/call result that
// is a task handle skips the post-processing (its output is validated when
// it arrives). resultType is the modern result's, found already.
func taskResult(era Era, raw, resultType RawMessage) (*wireTask, bool, error) {
	if era == EraModern {
		return modernTaskCreated(raw, resultType)
	}
	return taskCreated(era, raw)
}

// CallToolAsTask calls a tool asking for (2025-11-25) or allowing
// (2026-07-28) task execution, and returns the task's handle. A server may
// still answer with a plain result (a modern server decides per request; a
// legacy server that does not advertise task-augmented tools/call is called
// without it): the handle is then already completed, with an empty ID.
// On modern servers the request declares the tasks extension even when
// ClientOptions.Tasks is off.
func (s *Session) CallToolAsTask(ctx context.Context, params *CallToolParams, opts *TaskOptions) (*Task, error) {
	if params == nil || params.Name == "" {
		return nil, wrap(errBadParams, "CallToolAsTask needs a tool name")
	}
	raw, err := marshalParams(params)
	if err != nil {
		return nil, err
	}
	if opts != nil && opts.Call != nil {
		o := *opts
		o.Call = nativeOpts(opts.Call)
		opts = &o
	}
	return s.callToolAsTask(ctx, params.Name, raw, opts)
}

// CallToolAsTaskRaw is CallToolAsTask with the tools/call params encoded
// already (a JSON object with a name): the path of the JavaScript and WASI
// hosts, which never encode a Go value with encoding/json.
func (s *Session) CallToolAsTaskRaw(ctx context.Context, params RawMessage, opts *TaskOptions) (*Task, error) {
	ms, err := objectMembers(params)
	if err != nil {
		return nil, wrapWhat(errBadParams, "tools/call params", err)
	}
	name := stringMember(ms, "name")
	if name == "" {
		return nil, wrap(errBadParams, "CallToolAsTask needs a tool name")
	}
	return s.callToolAsTask(ctx, name, params, opts)
}

// callToolAsTask is CallToolAsTask of encoded params.
func (s *Session) callToolAsTask(ctx context.Context, name string, params RawMessage, opts *TaskOptions) (*Task, error) {
	if opts == nil {
		opts = &TaskOptions{}
	}
	req := params
	if s.Era() == EraLegacy && s.legacyTaskTools() {
		task := RawMessage("{}")
		if opts.TTL > 0 {
			task = append(strconv.AppendInt([]byte(`{"ttl":`), opts.TTL.Milliseconds(), 10), '}')
		}
		ms, err := objectMembers(params)
		if err != nil {
			return nil, wrapWhat(errBadParams, "tools/call params", err)
		}
		req = appendObject(nil, setMembers(ms, jsonscan.Member{Key: "task", Val: task}))
	}
	return s.startTask(ctx, name, req, s.tasksMeta(opts.Call))
}

// startTask sends tools/call and wraps the answer in a Task.
func (s *Session) startTask(ctx context.Context, tool string, params RawMessage, opts *CallOptions) (*Task, error) {
	raw, err := s.call(ctx, MethodCallTool, params, opts, nil)
	if err != nil && raw == nil {
		return nil, err
	}
	w, ok, terr := taskCreated(s.Era(), raw)
	if terr != nil {
		return nil, terr
	}
	if ok {
		return s.newTask(tool, w), nil
	}
	r, err := s.toolResult(raw, err)
	if r == nil {
		return nil, err
	}
	t := s.newTask(tool, &wireTask{Status: TaskCompleted})
	t.raw = raw
	t.finish(r, err)
	return t, nil
}

// toolResult decodes a plain tools/call result; err is the call's own
// error (an *OutputSchemaError gets the decoded result). A nil result
// comes with the decoding error.
func (s *Session) toolResult(raw RawMessage, err error) (*CallToolResult, error) {
	var r CallToolResult
	if derr := decodeCallToolResult(raw, &r, &s.metaMemo); derr != nil {
		return nil, wrapWhat(ErrInvalidResult, MethodCallTool, derr)
	}
	var ose *OutputSchemaError
	if errf.As(err, &ose) {
		ose.Result = &r
	}
	return &r, err
}

// callToolTask is CallTool's path for servers that answer with tasks: a
// modern server that requires the extension (-32021) is asked again with
// it declared, a legacy tool that requires task augmentation is called as a
// task, and unless opts.NoTaskWait the task is waited for.
func (s *Session) callToolTask(ctx context.Context, params *CallToolParams, opts *CallOptions) (*CallToolResult, error) {
	era := s.Era()
	if era == EraLegacy && s.legacyTaskTools() {
		s.learnTaskSupport(ctx, params.Name)
		if s.legacyToolNeedsTask(params.Name) {
			t, err := s.CallToolAsTask(ctx, params, &TaskOptions{Call: opts})
			if err != nil {
				return nil, err
			}
			return s.awaitTask(ctx, t, opts)
		}
	}
	send, err := marshalParams(params)
	if err != nil {
		return nil, err
	}
	raw, w, isTask, err := s.callToolProbed(ctx, era, send, nativeOpts(opts))
	if err != nil && raw == nil {
		return nil, err
	}
	if isTask {
		return s.awaitTask(ctx, s.newTask(params.Name, w), opts)
	}
	// A plain result (the common case: no Task is made).
	return s.toolResult(raw, err)
}

// awaitTask is CallTool's end for a task: its handle in a
// *TaskCreatedError (NoTaskWait), or its result.
func (s *Session) awaitTask(ctx context.Context, t *Task, opts *CallOptions) (*CallToolResult, error) {
	if t.ID() == "" { // the server answered directly
		return t.Result()
	}
	if opts != nil && opts.NoTaskWait {
		return nil, &TaskCreatedError{Task: t}
	}
	return t.Wait(ctx, nil)
}

// callToolProbed runs a tools/call request (params encoded) through the
// pipeline and reports whether its result is a task handle: as the
// pipeline found while it checked the result, or, for a cached result it
// did not check, as taskCreated finds. A modern server that insists on the
// tasks extension (-32021) is asked again with it declared (tasksMeta
// keeps opts' encoder; what it adds is JSON-shaped). A failed call returns
// its result, if any (an *OutputSchemaError comes with one), and its
// error, not a task.
func (s *Session) callToolProbed(ctx context.Context, era Era, params RawMessage, opts *CallOptions) (RawMessage, *wireTask, bool, error) {
	var probe taskProbe
	raw, err := s.callProbe(ctx, MethodCallTool, params, opts, nil, &probe)
	var rpc *RPCError
	if errf.As(err, &rpc) && era == EraModern && rpc.Code == CodeMissingRequiredClientCapability && requiresTasksExtension(rpc) && !s.client.opts.Tasks {
		probe = taskProbe{}
		raw, err = s.callProbe(ctx, MethodCallTool, params, s.tasksMeta(opts), nil, &probe)
	}
	if err != nil {
		return raw, nil, false, err
	}
	w, ok, terr := probe.task, probe.ok, probe.err
	if !probe.set { // a cached result: the pipeline did not look at it
		w, ok, terr = taskCreated(era, raw)
	}
	if terr != nil {
		return nil, nil, false, terr
	}
	return raw, w, ok, nil
}

// CallToolRaw is CallTool for bridges: raw params in, the raw result out
// (unknown members kept), with the same task handling: a task the server
// insists on is waited for, unless opts.NoTaskWait (then a
// *TaskCreatedError). A result with a structuredContent mismatch comes back
// together with its *OutputSchemaError.
func (s *Session) CallToolRaw(ctx context.Context, params RawMessage, opts *CallOptions) (RawMessage, error) {
	era := s.Era()
	send := params
	name := ""
	if era == EraLegacy && s.legacyTaskTools() {
		ms, err := objectMembers(params)
		if err != nil {
			return nil, wrapWhat(errBadParams, "tools/call params", err)
		}
		name = stringMember(ms, "name")
		s.learnTaskSupport(ctx, name)
		if s.legacyToolNeedsTask(name) && getMember(ms, "task") == nil {
			if send, err = buildParams(ms, nil, jsonscan.Member{Key: "task", Val: RawMessage("{}")}); err != nil {
				return nil, err
			}
		}
	}
	raw, w, isTask, err := s.callToolProbed(ctx, era, send, opts)
	if err != nil || !isTask {
		return raw, err
	}
	if name == "" {
		ms, _ := objectMembers(params)
		name = stringMember(ms, "name")
	}
	t := s.newTask(name, w)
	if opts != nil && opts.NoTaskWait {
		return nil, &TaskCreatedError{Task: t}
	}
	if _, err := t.Wait(ctx, nil); err != nil {
		return t.RawResult(), err
	}
	return t.RawResult(), nil
}

// learnTaskSupport lists the tools of a legacy server that runs some tools
// only as tasks (it tells which in tools/list, execution.taskSupport) when
// the tool is not known yet; once per tool name and session.
func (s *Session) learnTaskSupport(ctx context.Context, name string) {
	if name == "" || s.toolInfo(name) != nil {
		return
	}
	tw := &s.taskWatch
	tw.mu.Lock()
	if tw.listed == nil {
		tw.listed = map[string]bool{}
	}
	seen := tw.listed[name] || len(tw.listed) >= 1024
	tw.listed[name] = true
	tw.mu.Unlock()
	if !seen {
		_, _ = s.allTools(ctx)
	}
}

// legacyToolNeedsTask reports whether a listed legacy tool declared
// execution.taskSupport "required" (and the server supports task tools).
func (s *Session) legacyToolNeedsTask(name string) bool {
	if !s.legacyTaskTools() {
		return false
	}
	info := s.toolInfo(name)
	return info != nil && info.taskRequired
}

// taskSupportRequired reads a tool's execution.taskSupport (2025-11-25).
func taskSupportRequired(execution RawMessage) bool {
	if len(execution) == 0 || !bytes.Contains(execution, []byte("required")) {
		return false
	}
	var e taskSupport
	err := decodeShape(execution, &e)
	support := e.TaskSupport
	return err == nil && support == "required"
}

func requiresTasksExtension(rpc *RPCError) bool {
	return bytes.Contains(rpc.Data, []byte(ExtensionTasks)) || len(rpc.Data) == 0
}

// GetTask fetches a task's state by id (tasks/get) and returns a handle to
// wait for it or cancel it: how a task is resumed in a new session (after a
// page reload, or from another process). An unknown id is the server's
// *RPCError (-32602 Invalid params).
func (s *Session) GetTask(ctx context.Context, id string) (*Task, error) {
	if id == "" {
		return nil, wrap(errBadParams, "GetTask needs a task id")
	}
	t := &Task{s: s, st: TaskState{ID: id}, answered: map[string]bool{}, notes: make(chan wireTask, 8), waiting: make(chan struct{}, 1)}
	if _, err := t.refresh(ctx, nil); err != nil {
		return nil, err
	}
	return t, nil
}

// Refresh fetches the task's state once (tasks/get) and returns it.
func (t *Task) Refresh(ctx context.Context) (TaskState, error) {
	_, err := t.refresh(ctx, nil)
	return t.State(), err
}

// refresh runs tasks/get and records the state; it returns the wire task.
func (t *Task) refresh(ctx context.Context, opts *TaskWaitOptions) (*wireTask, error) {
	id := t.ID()
	raw, err := t.s.RequestRaw(ctx, MethodGetTask, stringParams("taskId", id), t.s.tasksMeta(&CallOptions{NoCache: true}))
	if err != nil {
		return nil, err
	}
	var w wireTask
	if err := decodeWireTaskJSON(raw, &w); err != nil {
		return nil, wrapWhat(ErrInvalidResult, "tasks/get", err)
	}
	if w.TaskID == "" {
		w.TaskID = id
	}
	if w.TaskID != id {
		return nil, errf.Errorf("%w: tasks/get for %s answered task %s", ErrInvalidResult, id, w.TaskID)
	}
	if err := w.validate(); err != nil {
		return nil, err
	}
	if err := t.observe(&w, opts); err != nil {
		return nil, err
	}
	return &w, nil
}

// Cancel asks the server to cancel the task (tasks/cancel). Cancellation is
// cooperative: the task may still complete; Wait reports how it ended.
func (t *Task) Cancel(ctx context.Context) error {
	if t.ID() == "" {
		return nil
	}
	raw, err := t.s.RequestRaw(ctx, MethodCancelTask, stringParams("taskId", t.ID()), t.s.tasksMeta(nil))
	if err != nil {
		return err
	}
	// A 2025-11-25 server answers with the task; the extension acks.
	var w wireTask
	if decodeWireTaskJSON(raw, &w) == nil && w.TaskID != "" && w.validate() == nil {
		_ = t.observe(&w, nil)
	}
	return nil
}

// Wait waits for the task to end and returns its result: polling tasks/get
// at the server's suggested interval (bounded by MinTaskPollInterval and
// TaskWaitOptions.MaxPollInterval), woken early by status notifications
// where the server sends them, backing off exponentially (with jitter)
// after failed polls, and bounded by ctx (when ctx ends, Wait returns its
// error and the task keeps running: Wait again, or Cancel). Input the task
// needs is asked of the client's handlers, as for any server request:
// legacy servers deliver it on the tasks/result stream, modern servers in
// the task's inputRequests, answered with tasks/update.
//
// A failed task returns an *RPCError, a cancelled one ErrTaskCancelled. A
// result whose structuredContent does not match the tool's outputSchema is
// returned with an *OutputSchemaError, as CallTool does.
func (t *Task) Wait(ctx context.Context, opts *TaskWaitOptions) (*CallToolResult, error) {
	if r, err := t.Result(); !errors.Is(err, ErrTaskPending) {
		return r, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	select {
	case t.waiting <- struct{}{}:
		defer func() { <-t.waiting }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if r, err := t.Result(); !errors.Is(err, ErrTaskPending) {
		return r, err
	}
	if opts == nil {
		opts = &TaskWaitOptions{}
	}
	maxPoll := opts.MaxPollInterval
	if maxPoll <= 0 {
		maxPoll = DefaultMaxTaskPollInterval
	}
	retries := opts.MaxRetries
	if retries == 0 {
		retries = DefaultTaskPollRetries
	}
	s := t.s
	unwatch := s.taskWatch.add(t)
	defer unwatch()
	if s.Era() == EraModern {
		if sub := t.listen(ctx); sub != nil {
			defer sub.Close()
		}
	}

	cur := t.actionable() // the state to act on, if any
	// A state that needs acting on but lacks its payload (a task created
	// already finished) is polled at once.
	st := t.State()
	pollNow := cur == nil && (terminalStatus(st.Status) || st.Status == TaskInputRequired)
	failures := 0
	for {
		if cur != nil {
			r, err, done := t.step(ctx, cur, opts)
			if done {
				return t.finish(r, err)
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, err
			}
		}
		cur = nil
		delay := t.PollInterval()
		if pollNow {
			pollNow, delay = false, MinTaskPollInterval
		}
		if delay == 0 {
			delay = DefaultTaskPollInterval
		}
		if failures > 0 {
			delay = backoff(delay, failures, s.client.clock.Now())
		}
		delay = min(max(delay, MinTaskPollInterval), maxPoll)
		timer := s.client.clock.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case w := <-t.notes:
			timer.Stop()
			if err := t.observe(&w, opts); err != nil {
				s.warn(err)
				continue
			}
			cur = t.actionable()
			if cur == nil {
				st := t.State()
				pollNow = terminalStatus(st.Status) || st.Status == TaskInputRequired
			}
			continue
		case <-timer.C():
		}
		w, err := t.refresh(ctx, opts)
		if err != nil {
			var rpc *RPCError
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if errf.As(err, &rpc) || errors.Is(err, ErrInvalidResult) || errors.Is(err, ErrClosed) || retries < 0 || failures >= retries {
				return nil, err
			}
			failures++
			continue
		}
		failures = 0
		cur = w
	}
}

// backoff doubles d per failure, with up to 25% jitter (from the clock's
// low bits: spreading clients apart needs no random number generator, and
// math/rand would cost the wasm build tens of kilobytes).
func backoff(d time.Duration, failures int, now time.Time) time.Duration {
	for range min(failures, 16) {
		d *= 2
	}
	return d + time.Duration(now.UnixNano()%(int64(d)/4+1))
}

// step acts on one observed state. done reports that the task ended with
// (r, err).
func (t *Task) step(ctx context.Context, w *wireTask, opts *TaskWaitOptions) (r *CallToolResult, err error, done bool) {
	if t.s.Era() == EraModern {
		switch w.Status {
		case TaskCompleted:
			if len(w.Result) == 0 {
				return nil, errStr("%w: completed task %s has no result", ErrInvalidResult, w.TaskID), true
			}
			r, err = t.decodeResult(w.Result)
			return r, err, true
		case TaskFailed:
			if w.Error == nil {
				return nil, &RPCError{Code: CodeInternalError, Message: w.StatusMessage}, true
			}
			return nil, rpcErrorFrom(w.Error), true
		case TaskCancelled:
			return nil, ErrTaskCancelled, true
		case TaskInputRequired:
			if err := t.answerInputs(ctx, w.InputRequests); err != nil {
				return nil, err, false // Wait returns it; the task goes on
			}
		}
		return nil, nil, false
	}
	switch w.Status {
	case TaskCancelled:
		return nil, ErrTaskCancelled, true
	case TaskCompleted, TaskFailed, TaskInputRequired:
		// tasks/result blocks until the task ends; the server delivers the
		// task's own requests (elicitation, sampling) on its stream, which
		// the session answers with the client's handlers.
		raw, err := t.s.RequestRaw(ctx, MethodTaskResult, stringParams("taskId", w.TaskID), &CallOptions{Timeout: -1, NoCache: true})
		if err != nil {
			var rpc *RPCError
			if ctx.Err() == nil && errf.As(err, &rpc) {
				return nil, err, true // the task failed with this error
			}
			return nil, err, false
		}
		t.mu.Lock()
		if !terminalStatus(t.st.Status) {
			t.st.Status = TaskCompleted
		}
		t.mu.Unlock()
		r, err = t.decodeResult(raw)
		return r, err, true
	}
	return nil, nil, false
}

// RawResult returns the final result as the server sent it (nil before the
// task ended, or when it failed).
func (t *Task) RawResult() RawMessage {
	t.mu.Lock()
	v := t.raw
	t.mu.Unlock()
	return v
}

// decodeResult decodes a task's final CallToolResult and validates it
// against the tool's output schema.
func (t *Task) decodeResult(raw RawMessage) (*CallToolResult, error) {
	t.mu.Lock()
	if t.raw == nil {
		t.raw = raw
	}
	t.mu.Unlock()
	var r CallToolResult
	if err := decodeCallToolResult(raw, &r, &t.s.metaMemo); err != nil {
		return nil, wrapWhat(ErrInvalidResult, MethodCallTool, err)
	}
	if t.tool != "" && !t.s.client.opts.DisableOutputValidation {
		if err := t.s.validateOutput(t.tool, raw); err != nil {
			var ose *OutputSchemaError
			if errf.As(err, &ose) {
				ose.Result = &r
			}
			return &r, err
		}
	}
	return &r, nil
}

// answerInputs answers the inputRequests of a modern task that were not
// answered before (keys are unique over a task's life) and sends them with
// tasks/update.
func (t *Task) answerInputs(ctx context.Context, reqs map[string]*InputRequest) error {
	t.mu.Lock()
	fresh := map[string]*InputRequest{}
	for k, r := range reqs {
		if !t.answered[k] {
			fresh[k] = r
		}
	}
	t.mu.Unlock()
	if len(fresh) == 0 {
		return nil
	}
	responses, err := t.s.fulfilInputs(ctx, fresh)
	if err != nil {
		return err
	}
	// The members in encoding/json's order of map keys.
	params, err := appendRawJSON([]byte(`{"inputResponses":`), responses)
	params = append(jsonscan.AppendString(append(params, `,"taskId":`...), t.ID()), '}')
	if err != nil {
		return errf.Errorf("core: encoding params: %w", err)
	}
	if _, err := t.s.RequestRaw(ctx, MethodUpdateTask, params, t.s.tasksMeta(nil)); err != nil {
		return err
	}
	t.mu.Lock()
	for k := range fresh {
		t.answered[k] = true
	}
	t.mu.Unlock()
	return nil
}

// listen opens a subscriptions/listen stream for the task's status
// notifications when the server offers the extension; nil if it cannot
// (Wait then only polls).
func (t *Task) listen(ctx context.Context) *Subscription {
	if !t.s.serverHasTasksExtension() {
		return nil
	}
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	sub, err := t.s.Listen(lctx, &SubscriptionFilter{TaskIDs: []string{t.ID()}}, nil)
	cancel() // it bounds only the wait for the acknowledgement
	if err != nil {
		return nil
	}
	if ack := sub.Acknowledged(); ack == nil || !hasString(ack.TaskIDs, t.ID()) {
		sub.Close() // the server will not send this task's status
		return nil
	}
	return sub
}

func (s *Session) serverHasTasksExtension() bool {
	s.mu.Lock()
	d := s.discover
	s.mu.Unlock()
	if d == nil || d.Capabilities == nil {
		return false
	}
	_, ok := d.Capabilities.Extensions[ExtensionTasks]
	return ok
}

// ListTasks returns one page of the server's tasks (tasks/list, 2025-11-25
// servers that advertise it). The 2026-07-28 extension has no tasks/list:
// ErrNotSupported.
func (s *Session) ListTasks(ctx context.Context, params *PaginatedParams) (*ListTasksResult, error) {
	if s.Era() == EraModern {
		return nil, wrap(ErrNotSupported, "the 2026-07-28 tasks extension has no tasks/list")
	}
	if !s.serverHasTaskList() {
		return nil, wrap(ErrNotSupported, "the server does not advertise tasks/list")
	}
	var praw RawMessage
	if params != nil {
		var err error
		if praw, err = marshalPaginated(params); err != nil {
			return nil, errf.Errorf("core: encoding params: %w", err)
		}
	}
	raw, err := s.RequestRaw(ctx, MethodListTasks, praw, &CallOptions{NoCache: true})
	if err != nil {
		return nil, err
	}
	var r listTasksWire
	err = decodeParamsOf(raw, &r)
	if err != nil {
		return nil, wrapWhat(ErrInvalidResult, "tasks/list", err)
	}
	out := &ListTasksResult{NextCursor: r.NextCursor, Tasks: make([]TaskState, 0, len(r.Tasks))}
	for _, w := range r.Tasks {
		if w == nil || w.validate() != nil {
			s.warn(wrap(ErrInvalidResult, "tasks/list: dropping a malformed task"))
			continue
		}
		out.Tasks = append(out.Tasks, w.state())
	}
	return out, nil
}

// taskWatchers routes status notifications to the tasks being waited for.
type taskWatchers struct {
	mu sync.Mutex
	m  map[string][]*Task

	caps      *ServerCapabilities // legacyTaskTools' cache: the capabilities it read
	capsTools bool
	listed    map[string]bool // tools looked up in tools/list for their taskSupport
}

func (tw *taskWatchers) add(t *Task) (remove func()) {
	id := t.ID()
	tw.mu.Lock()
	if tw.m == nil {
		tw.m = map[string][]*Task{}
	}
	tw.m[id] = append(tw.m[id], t)
	tw.mu.Unlock()
	return func() {
		tw.mu.Lock()
		l := tw.m[id]
		for i, x := range l {
			if x == t {
				l = append(l[:i], l[i+1:]...)
				break
			}
		}
		if len(l) == 0 {
			delete(tw.m, id)
		} else {
			tw.m[id] = l
		}
		tw.mu.Unlock()
	}
}

// deliver hands a task status notification to its waiters, dropping it when
// a waiter's buffer is full (the next poll catches up).
func (s *Session) deliverTaskStatus(params RawMessage) {
	var w wireTask
	if err := decodeWireTaskJSON(params, &w); err != nil || w.validate() != nil {
		s.warn(wrap(ErrInvalidResult, "malformed task status notification"))
		return
	}
	s.taskWatch.mu.Lock()
	for _, t := range s.taskWatch.m[w.TaskID] {
		select {
		case t.notes <- w:
		default:
		}
	}
	s.taskWatch.mu.Unlock()
}

var (
	taskContentFields = []string{"task", "content"}
	listTasksFields   = []string{"tasks", "nextCursor"}
)
