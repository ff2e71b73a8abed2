package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON schemas shared by several tools.
var (
	emptyObjectSchema = json.RawMessage(`{"type":"object"}`)
	sumSchema         = json.RawMessage(`{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}`)
	textSchema        = json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)
	// elicitSchema is the requestedSchema of the elicit and multi_input tools.
	elicitSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"name":{"type":"string","default":"Ada"},` +
		`"age":{"type":"integer","minimum":0},` +
		`"color":{"type":"string","enum":["red","green"],"default":"green"}},` +
		`"required":["age"]}`)
)

// Fixed values of the elicit_url tool.
const (
	consentURL    = "https://example.com/consent"
	elicitationID = "e-1"
)

// Input-request keys used in MRTR inputRequests maps.
const (
	keyElicit = "elicit"
	keyRoots  = "roots"
	keySample = "sample"
)

// maxLegacyRounds bounds the in-process MRTR loop run for legacy clients.
const maxLegacyRounds = 8

type noArgs struct{}

type textArgs struct {
	Text string `json:"text"`
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func jsonText(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return textResult(string(b)), nil
}

// addTool registers a typed tool with an explicit input schema and no
// output schema.
func addTool[In any](s *Server, name, description string, schema json.RawMessage, h func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, error)) {
	mcp.AddTool(s.mcp, &mcp.Tool{Name: name, Description: description, InputSchema: schema},
		func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
			res, err := h(ctx, req, in)
			return res, nil, err
		})
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in textArgs) (*mcp.CallToolResult, error) {
	return textResult(in.Text), nil
}

func (s *Server) addTools() {
	addTool(s, "echo", "Returns its text argument unchanged.", textSchema, echo)

	type addIn struct {
		A int64 `json:"a"`
		B int64 `json:"b"`
	}
	type addOut struct {
		Sum int64 `json:"sum"`
	}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:         "add",
		Description:  "Adds two integers; structured output {sum}.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}`),
		OutputSchema: sumSchema,
	}, func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
		sum := in.A + in.B
		return textResult(strconv.FormatInt(sum, 10)), addOut{Sum: sum}, nil
	})

	// bad_output uses the raw Server.AddTool: mcp.AddTool validates the
	// structured output against the output schema and would refuse to send it.
	s.mcp.AddTool(&mcp.Tool{
		Name:         "bad_output",
		Description:  "Declares an output schema and violates it.",
		InputSchema:  emptyObjectSchema,
		OutputSchema: sumSchema,
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := textResult(`{"sum":"not a number"}`)
		res.StructuredContent = map[string]any{"sum": "not a number"}
		return res, nil
	})

	addTool(s, "fail", "Returns a tool error result.", emptyObjectSchema,
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, error) {
			res := textResult("it failed")
			res.IsError = true
			return res, nil
		})

	addTool(s, "boom", "Fails with a JSON-RPC protocol error.", emptyObjectSchema,
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "boom"}
		})

	addTool(s, "content_mix", "Returns one block of each content type.", emptyObjectSchema,
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "some text"},
				&mcp.ImageContent{Data: tinyPNG, MIMEType: "image/png"},
				&mcp.AudioContent{Data: tinyWAV, MIMEType: "audio/wav"},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
					URI: "test://embedded", MIMEType: "text/plain", Text: "embedded text",
				}},
				&mcp.ResourceLink{URI: staticTextURI, Name: "static-text", MIMEType: "text/plain"},
			}}, nil
		})

	type progressIn struct {
		Steps   int `json:"steps"`
		DelayMs int `json:"delayMs"`
	}
	addTool(s, "progress", "Sends steps progress notifications delayMs apart.",
		json.RawMessage(`{"type":"object","properties":{"steps":{"type":"integer","minimum":0},"delayMs":{"type":"integer","minimum":0}},"required":["steps","delayMs"]}`),
		func(ctx context.Context, req *mcp.CallToolRequest, in progressIn) (*mcp.CallToolResult, error) {
			token := req.Params.GetProgressToken()
			if token == nil {
				return textResult("done"), nil
			}
			for i := 1; i <= in.Steps; i++ {
				if i > 1 {
					if err := sleep(ctx, time.Duration(in.DelayMs)*time.Millisecond); err != nil {
						return nil, err
					}
				}
				// Errors (e.g. JSONResponse in the modern era, where the
				// notification has no stream to travel on) are not fatal.
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      float64(i),
					Total:         float64(in.Steps),
					Message:       fmt.Sprintf("step %d", i),
				})
			}
			return textResult("done"), nil
		})

	type logIn struct {
		Level   string `json:"level,omitempty"`
		Message string `json:"message,omitempty"`
	}
	addTool(s, "log", "Logs message at level and at debug.",
		json.RawMessage(`{"type":"object","properties":{"level":{"type":"string","enum":["debug","info","notice","warning","error","critical","alert","emergency"]},"message":{"type":"string"}}}`),
		func(ctx context.Context, req *mcp.CallToolRequest, in logIn) (*mcp.CallToolResult, error) {
			level, msg := mcp.LoggingLevel(in.Level), in.Message
			if level == "" {
				level = "info"
			}
			if msg == "" {
				msg = "hello"
			}
			for _, l := range []mcp.LoggingLevel{level, "debug"} {
				//lint:ignore SA1019 logging is deprecated in 2026-07-28 but part of the contract.
				_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: l, Logger: "test", Data: msg})
			}
			return textResult("logged"), nil
		})

	type slowIn struct {
		Ms int `json:"ms"`
	}
	addTool(s, "slow", "Sleeps ms milliseconds or until cancelled.",
		json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0}},"required":["ms"]}`),
		func(ctx context.Context, _ *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, error) {
			if err := sleep(ctx, time.Duration(in.Ms)*time.Millisecond); err != nil {
				s.cancelledSlows.Add(1)
				return nil, err
			}
			return textResult("slept"), nil
		})

	addTool(s, "cancelled_count", "Number of slow calls cancelled before finishing.", emptyObjectSchema,
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, error) {
			return textResult(strconv.FormatInt(s.cancelledSlows.Load(), 10)), nil
		})

	addTool(s, "elicit", "Form elicitation; returns the ElicitResult as JSON.", emptyObjectSchema, mrtr(s.elicitStep))
	addTool(s, "elicit_url", "URL elicitation; returns the action.", emptyObjectSchema, mrtr(s.elicitURLStep))

	type sampleIn struct {
		Prompt string `json:"prompt"`
	}
	addTool(s, "sample", "Sampling; returns \"<model>: <reply>\".",
		json.RawMessage(`{"type":"object","properties":{"prompt":{"type":"string"}},"required":["prompt"]}`),
		mrtr(func(ctx context.Context, req *mcp.CallToolRequest, in sampleIn, _ string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
			if resp, ok := responses[keySample]; ok {
				model, text, err := samplingReply(resp)
				if err != nil {
					return nil, err
				}
				return textResult(model + ": " + text), nil
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{keySample: &mcp.CreateMessageParams{
				Messages:     []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: in.Prompt}}},
				MaxTokens:    50,
				SystemPrompt: "be brief",
			}}}, nil
		}))

	addTool(s, "sample_tools", "Sampling with tools; returns the CreateMessageResult as JSON.", emptyObjectSchema,
		mrtr(func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs, _ string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
			if resp, ok := responses[keySample]; ok {
				return jsonText(resp)
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{keySample: &mcp.CreateMessageWithToolsParams{
				Messages: []*mcp.SamplingMessageV2{{
					Role:    "user",
					Content: []mcp.Content{&mcp.TextContent{Text: "What time is it?"}},
				}},
				MaxTokens:  50,
				Tools:      []*mcp.Tool{{Name: "get_time", Description: "Returns the current time.", InputSchema: emptyObjectSchema}},
				ToolChoice: &mcp.ToolChoice{Mode: "auto"},
			}}}, nil
		}))

	addTool(s, "roots", "Lists the client's roots; returns their URIs as JSON.", emptyObjectSchema,
		mrtr(func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs, _ string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
			if resp, ok := responses[keyRoots]; ok {
				uris, err := rootURIs(resp)
				if err != nil {
					return nil, err
				}
				return jsonText(uris)
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{keyRoots: &mcp.ListRootsParams{}}}, nil
		}))

	addTool(s, "multi_input", "Elicitation + roots in one round, then sampling.", emptyObjectSchema, mrtr(s.multiInputStep))

	type headerIn struct {
		Region   string `json:"region"`
		Priority int64  `json:"priority"`
		Note     string `json:"note,omitempty"`
	}
	addTool(s, "header_echo", "Echoes the raw Mcp-Param-Region and Mcp-Param-Priority headers.",
		json.RawMessage(`{"type":"object","properties":{`+
			`"region":{"type":"string","x-mcp-header":"Region"},`+
			`"priority":{"type":"integer","x-mcp-header":"Priority"},`+
			`"note":{"type":"string"}},"required":["region","priority"]}`),
		func(_ context.Context, req *mcp.CallToolRequest, _ headerIn) (*mcp.CallToolResult, error) {
			var region, priority string
			if req.Extra != nil && req.Extra.Header != nil {
				region = req.Extra.Header.Get("Mcp-Param-Region")
				priority = req.Extra.Header.Get("Mcp-Param-Priority")
			}
			return textResult(region + "|" + priority), nil
		})

	addTool(s, "change_tools", "Adds a tool extra_<n> (list_changed follows).", emptyObjectSchema,
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, error) {
			name := fmt.Sprintf("extra_%d", s.extraTools.Add(1))
			addTool(s, name, "Echo-like tool added by change_tools.", textSchema, echo)
			return textResult(name), nil
		})

	type touchIn struct {
		URI string `json:"uri"`
	}
	addTool(s, "touch", "Sends notifications/resources/updated for uri.",
		json.RawMessage(`{"type":"object","properties":{"uri":{"type":"string"}},"required":["uri"]}`),
		func(ctx context.Context, _ *mcp.CallToolRequest, in touchIn) (*mcp.CallToolResult, error) {
			if err := s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: in.URI}); err != nil {
				return nil, err
			}
			return textResult("touched"), nil
		})

	addTool(s, "whoami", "Returns {protocolVersion, clientInfo, clientCapabilities} as seen for this request.", emptyObjectSchema,
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, error) {
			return jsonText(whoami(req))
		})

	for i := range 25 {
		name := fmt.Sprintf("page_tool_%02d", i)
		addTool(s, name, "Trivial tool for pagination.", emptyObjectSchema,
			func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, error) {
				return textResult(name), nil
			})
	}
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ---- Multi round-trip plumbing ----

// stepFunc is one invocation of an MRTR-style tool: given the request state
// and the input responses of the previous round (both empty on the first
// round) it returns either a final result or a result with InputRequests
// (and optionally RequestState) asking for another round.
type stepFunc[In any] func(ctx context.Context, req *mcp.CallToolRequest, in In, state string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error)

// mrtr adapts an MRTR-style step function to both eras.
//
// Modern (2026-07-28) requests run one step per HTTP request: the
// InputRequests result goes back to the client as resultType
// "input_required" and the client retries with inputResponses and the
// byte-exact requestState.
//
// Legacy requests run the rounds in-process: every input request is
// fulfilled with a real server->client JSON-RPC request on the session
// (elicitation/create, sampling/createMessage, roots/list), sequentially and
// in key order, and the step is invoked again with the responses. The SDK's
// own legacy shim (serverMultiRoundTripMiddleware) is not used: it re-invokes
// the handler only once and fulfils a round's requests concurrently.
func mrtr[In any](step stepFunc[In]) func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, error) {
		if isModern(req.Params) {
			return step(ctx, req, in, req.Params.RequestState, req.Params.InputResponses)
		}
		var (
			state     string
			responses mcp.InputResponseMap
		)
		for round := 0; ; round++ {
			res, err := step(ctx, req, in, state, responses)
			if err != nil || res == nil || res.InputRequests == nil {
				return res, err
			}
			if round >= maxLegacyRounds {
				return nil, fmt.Errorf("too many input rounds (%d)", round)
			}
			if responses, err = fulfilLegacy(ctx, req.Session, res.InputRequests); err != nil {
				return nil, err
			}
			state = res.RequestState
		}
	}
}

// fulfilLegacy answers input requests with server->client requests, one at a
// time in key order.
func fulfilLegacy(ctx context.Context, ss *mcp.ServerSession, reqs mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	keys := make([]string, 0, len(reqs))
	for k := range reqs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make(mcp.InputResponseMap, len(reqs))
	for _, k := range keys {
		var (
			resp mcp.InputResponse
			err  error
		)
		switch p := reqs[k].(type) {
		case *mcp.ElicitParams:
			resp, err = ss.Elicit(ctx, p)
		case *mcp.CreateMessageParams:
			//lint:ignore SA1019 sampling is deprecated in 2026-07-28 but part of the contract.
			resp, err = ss.CreateMessage(ctx, p)
		case *mcp.CreateMessageWithToolsParams:
			//lint:ignore SA1019 sampling is deprecated in 2026-07-28 but part of the contract.
			resp, err = ss.CreateMessageWithTools(ctx, p)
		case *mcp.ListRootsParams:
			//lint:ignore SA1019 roots are deprecated in 2026-07-28 but part of the contract.
			resp, err = ss.ListRoots(ctx, p)
		default:
			err = fmt.Errorf("unsupported input request %T", p)
		}
		if err != nil {
			return nil, fmt.Errorf("input request %q: %w", k, err)
		}
		out[k] = resp
	}
	return out, nil
}

// isModern reports whether the request carries the 2026-07-28 per-request
// _meta (the only way a request reaches a handler in that era).
func isModern(p mcp.Params) bool {
	if p == nil {
		return false
	}
	v, _ := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string)
	return v >= ModernProtocolVersion
}

// legacyVersion is the protocol version negotiated by initialize (the SDK
// keeps it private; this mirrors its rule).
func legacyVersion(ss *mcp.ServerSession) string {
	ip := ss.InitializeParams()
	if ip == nil {
		return ""
	}
	if ip.ProtocolVersion < ModernProtocolVersion && slices.Contains(mcp.SupportedProtocolVersions(), ip.ProtocolVersion) {
		return ip.ProtocolVersion
	}
	return "2025-11-25"
}

func elicitForm() *mcp.ElicitParams {
	return &mcp.ElicitParams{Mode: "form", Message: "Who are you?", RequestedSchema: elicitSchema}
}

// elicitView is the JSON shape returned by the elicit tool.
type elicitView struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

func (s *Server) elicitStep(_ context.Context, _ *mcp.CallToolRequest, _ noArgs, _ string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
	if resp, ok := responses[keyElicit]; ok {
		r, ok := resp.(*mcp.ElicitResult)
		if !ok {
			return nil, fmt.Errorf("input response %q is %T, want an elicitation result", keyElicit, resp)
		}
		return jsonText(elicitView{Action: r.Action, Content: r.Content})
	}
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{keyElicit: elicitForm()}}, nil
}

func (s *Server) elicitURLStep(ctx context.Context, req *mcp.CallToolRequest, _ noArgs, _ string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
	if resp, ok := responses[keyElicit]; ok {
		r, ok := resp.(*mcp.ElicitResult)
		if !ok {
			return nil, fmt.Errorf("input response %q is %T, want an elicitation result", keyElicit, resp)
		}
		if r.Action == "accept" && !isModern(req.Params) && legacyVersion(req.Session) == "2025-11-25" {
			if err := req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: elicitationID}); err != nil {
				s.logger.Warn("sending elicitation/complete", "error", err)
			}
		}
		return textResult(r.Action), nil
	}
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{keyElicit: &mcp.ElicitParams{
		Mode: "url", URL: consentURL, ElicitationID: elicitationID, Message: "Open the page",
	}}}, nil
}

// multiState is the (signed) requestState of multi_input.
type multiState struct {
	Round int      `json:"round"`
	Name  string   `json:"name,omitempty"`
	Roots []string `json:"roots,omitempty"`
}

func (s *Server) multiInputStep(ctx context.Context, req *mcp.CallToolRequest, _ noArgs, state string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
	var st multiState
	if state != "" {
		if err := s.openState(state, &st); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState: " + err.Error()}
		}
	}
	round1 := func() (*mcp.CallToolResult, error) {
		sealed, err := s.sealState(multiState{Round: 1})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{keyElicit: elicitForm(), keyRoots: &mcp.ListRootsParams{}},
			RequestState:  sealed,
		}, nil
	}
	switch st.Round {
	case 0:
		return round1()
	case 1:
		er, ok1 := responses[keyElicit].(*mcp.ElicitResult)
		rr, ok2 := responses[keyRoots]
		if !ok1 || !ok2 {
			return round1()
		}
		uris, err := rootURIs(rr)
		if err != nil {
			return nil, err
		}
		name, _ := er.Content["name"].(string)
		sealed, err := s.sealState(multiState{Round: 2, Name: name, Roots: uris})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{keySample: &mcp.CreateMessageParams{
				Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Say hello to " + name}}},
				MaxTokens: 50,
			}},
			RequestState: sealed,
		}, nil
	case 2:
		resp, ok := responses[keySample]
		if !ok {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing input response " + strconv.Quote(keySample)}
		}
		_, text, err := samplingReply(resp)
		if err != nil {
			return nil, err
		}
		if st.Roots == nil {
			st.Roots = []string{}
		}
		return jsonText(map[string]any{"name": st.Name, "roots": st.Roots, "sample": text})
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState round"}
	}
}

// samplingReply extracts the model and the first text block of a sampling
// response (legacy CreateMessage yields *CreateMessageResult; MRTR and
// CreateMessageWithTools yield *CreateMessageWithToolsResult).
func samplingReply(resp mcp.InputResponse) (model, text string, err error) {
	var content []mcp.Content
	switch r := resp.(type) {
	case *mcp.CreateMessageResult:
		model, content = r.Model, []mcp.Content{r.Content}
	case *mcp.CreateMessageWithToolsResult:
		model, content = r.Model, r.Content
	default:
		return "", "", fmt.Errorf("input response is %T, want a sampling result", resp)
	}
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			return model, t.Text, nil
		}
	}
	return model, "", nil
}

func rootURIs(resp mcp.InputResponse) ([]string, error) {
	r, ok := resp.(*mcp.ListRootsResult)
	if !ok {
		return nil, fmt.Errorf("input response is %T, want a roots result", resp)
	}
	uris := []string{}
	for _, root := range r.Roots {
		if root != nil {
			uris = append(uris, root.URI)
		}
	}
	return uris, nil
}

// whoami builds the whoami tool's view of the caller.
func whoami(req *mcp.CallToolRequest) map[string]any {
	if isModern(req.Params) {
		meta := req.Params.GetMeta()
		return map[string]any{
			"protocolVersion":    req.ProtocolVersion(),
			"clientInfo":         meta[mcp.MetaKeyClientInfo],
			"clientCapabilities": meta[mcp.MetaKeyClientCapabilities],
		}
	}
	view := map[string]any{"protocolVersion": legacyVersion(req.Session), "clientInfo": nil, "clientCapabilities": nil}
	if ip := req.Session.InitializeParams(); ip != nil {
		view["clientInfo"] = ip.ClientInfo
		view["clientCapabilities"] = capabilitiesView(ip.Capabilities)
	}
	return view
}

// capabilitiesView undoes the SDK's roots/RootsV2 split (#607) so the JSON
// shows roots only when the client declared them.
func capabilitiesView(c *mcp.ClientCapabilities) any {
	if c == nil {
		return nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	if c.RootsV2 != nil {
		m["roots"] = c.RootsV2
	} else if !c.Roots.ListChanged {
		delete(m, "roots")
	}
	return m
}
