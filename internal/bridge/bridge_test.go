package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// TestMillis: every duration decodes from a JSON number; a fraction is
// rounded up so that a small positive timeout never becomes 0 (none).
func TestMillis(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Millis
		err  bool
	}{
		{"0", 0, false}, {"1500", 1500, false}, {"0.2", 1, false}, {"1.5", 2, false}, {"-1", -1, false}, {"-0.5", 0, false},
		{`"10"`, 0, true}, {"true", 0, true}, {"1e300", 0, true},
	} {
		t.Run(c.in, func(t *testing.T) {
			var m Millis
			err := json.Unmarshal([]byte(c.in), &m)
			if c.err {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, m)
		})
	}
	assert.Equal(t, Millis(2), *Ms(1500 * time.Microsecond), "Ms rounds up")
	assert.Equal(t, Millis(-1), *Ms(-time.Second))
}

func ms(v Millis) *Millis { return &v }

// TestTimeoutMeaning: one meaning for every timeout — absent is the
// default, 0 and negative are none — in core's convention (0 default, -1
// none); bounded waits refuse 0 and negative values.
func TestTimeoutMeaning(t *testing.T) {
	assert.Equal(t, time.Duration(0), Timeout(nil), "absent: the default")
	assert.Equal(t, time.Duration(-1), Timeout(ms(0)), "0: none")
	assert.Equal(t, time.Duration(-1), Timeout(ms(-5)), "negative: none")
	assert.Equal(t, 250*time.Millisecond, Timeout(ms(250)))

	call := (&CallOptions{TimeoutMs: ms(0), MaxTotalTimeoutMs: ms(900)}).Core()
	assert.Equal(t, time.Duration(-1), call.Timeout)
	assert.Equal(t, 900*time.Millisecond, call.MaxTotalTimeout)
	assert.Equal(t, &core.CallOptions{}, (*CallOptions)(nil).Core())

	for _, c := range []struct {
		name string
		cfg  string
		want func(t *testing.T, o *core.ClientOptions)
		err  string
	}{
		{"defaults", `{}`, func(t *testing.T, o *core.ClientOptions) {
			assert.Zero(t, o.RequestTimeout)
			assert.Zero(t, o.MaxTotalTimeout)
			assert.Zero(t, o.ProbeTimeout)
			assert.Zero(t, o.KeepAlive)
			assert.Nil(t, o.Retry)
		}, ""},
		{"zero is none", `{"requestTimeoutMs":0,"maxTotalTimeoutMs":0,"keepAliveMs":0}`, func(t *testing.T, o *core.ClientOptions) {
			assert.Equal(t, time.Duration(-1), o.RequestTimeout)
			assert.Equal(t, time.Duration(-1), o.MaxTotalTimeout)
			assert.Zero(t, o.KeepAlive, "no pings")
		}, ""},
		{"values", `{"requestTimeoutMs":1500,"probeTimeoutMs":200,"keepAliveMs":30000,"retry":{"attempts":4,"delayMs":0,"maxDelayMs":2000}}`, func(t *testing.T, o *core.ClientOptions) {
			assert.Equal(t, 1500*time.Millisecond, o.RequestTimeout)
			assert.Equal(t, 200*time.Millisecond, o.ProbeTimeout)
			assert.Equal(t, 30*time.Second, o.KeepAlive)
			assert.Equal(t, &core.RetryPolicy{Attempts: 4, MaxDelay: 2 * time.Second}, o.Retry, "a delay of 0 is the default")
		}, ""},
		{"unbounded probe", `{"probeTimeoutMs":0}`, nil, "probeTimeoutMs must be positive"},
		{"negative delay", `{"retry":{"delayMs":-1}}`, nil, "retry.delayMs must not be negative"},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := rawjson.RawMessage(c.cfg)
			var m map[string]any
			require.NoError(t, json.Unmarshal(raw, &m))
			m["clientInfo"] = map[string]string{"name": "t", "version": "1"}
			b, _ := json.Marshal(m)
			cfg, err := DecodeClientConfig(b)
			require.NoError(t, err)
			_, opts, err := cfg.Options(&recorder{})
			if c.err != "" {
				var ce *ConfigError
				require.ErrorAs(t, err, &ce)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			c.want(t, opts)
		})
	}
}

// TestDecodeClientConfig: the schema is decoded strictly, and what it
// cannot mean is refused with a ConfigError that names the problem.
func TestDecodeClientConfig(t *testing.T) {
	for _, c := range []struct{ name, in, err string }{
		{"not JSON", `nope`, "client options"},
		{"unknown member", `{"clientInfo":{"name":"t","version":"1"},"requestTimeout":5}`, `unknown field "requestTimeout"`},
		{"trailing data", `{"clientInfo":{"name":"t","version":"1"}} {}`, "trailing data"},
		{"no clientInfo", `{}`, "clientInfo needs a name and a version"},
		{"flat clientInfo", `{"name":"t","version":"1"}`, `unknown field "name"`},
		{"unknown version", `{"clientInfo":{"name":"t","version":"1"},"protocolVersions":["1999-01-01"]}`, "unsupported protocol version"},
		{"unknown mode", `{"clientInfo":{"name":"t","version":"1"},"elicitationModes":["telepathy"]}`, "unknown elicitation mode"},
		{"unknown notification", `{"clientInfo":{"name":"t","version":"1"},"notifications":["notifications/x"]}`, "unknown notification"},
		{"root without uri", `{"clientInfo":{"name":"t","version":"1"},"roots":[{"name":"x"}]}`, "every root needs a uri"},
		{"string milliseconds", `{"clientInfo":{"name":"t","version":"1"},"requestTimeoutMs":"5"}`, "milliseconds must be a number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeClientConfig([]byte(c.in))
			var ce *ConfigError
			require.ErrorAs(t, err, &ce)
			assert.Contains(t, err.Error(), c.err)
			assert.Equal(t, KindInvalid, ErrorInfo(err, TaskStateJS).Kind)
		})
	}
}

// recorder is a Callbacks that records what the client hands the host.
type recorder struct {
	asked    []string
	answer   rawjson.RawMessage
	answerEr error
	notified []string
}

func (r *recorder) Ask(_ context.Context, _ *core.Session, method string, params rawjson.RawMessage) (rawjson.RawMessage, error) {
	r.asked = append(r.asked, method+" "+string(params))
	return r.answer, r.answerEr
}
func (r *recorder) Notify(_ *core.Session, method string, params rawjson.RawMessage) {
	r.notified = append(r.notified, method+" "+string(params))
}
func (r *recorder) Warn(*core.Session, error)                              {}
func (r *recorder) Message(*core.Session, core.Direction, jsonrpc.Message) {}

// TestOptionsCallbacks: the handlers the configuration declares reach the
// host's Callbacks with the params as JSON, and a malformed answer is a
// JSON-RPC internal error for the server rather than a panic.
func TestOptionsCallbacks(t *testing.T) {
	cfg, err := DecodeClientConfig([]byte(`{"clientInfo":{"name":"t","version":"1","title":"T"},
		"handlers":{"sampling":true,"elicitation":true,"roots":true},
		"notifications":["notifications/message","notifications/tools/list_changed"]}`))
	require.NoError(t, err)
	r := &recorder{answer: rawjson.RawMessage(`{"action":"accept","content":{"x":1},"completed":true}`)}
	impl, opts, err := cfg.Options(r)
	require.NoError(t, err)
	assert.Equal(t, &core.Implementation{Name: "t", Version: "1", Title: "T"}, impl)
	require.NotNil(t, opts.SamplingHandler)
	require.NotNil(t, opts.RootsHandler)
	require.NotNil(t, opts.LoggingHandler)
	require.NotNil(t, opts.ToolListChangedHandler)
	assert.Nil(t, opts.ProgressHandler, "only the notifications asked for")
	assert.Nil(t, opts.OnMessage, "no trace unless asked")

	res, err := opts.ElicitationHandler(context.Background(), &core.ElicitRequest{Params: &core.ElicitParams{Message: "m"}})
	require.NoError(t, err)
	assert.Equal(t, "accept", res.Action)
	assert.True(t, res.Completed, "the host may say the elicitation completed")
	assert.Equal(t, []string{`elicitation/create {"message":"m"}`}, r.asked)

	r.answer = rawjson.RawMessage(`[]`)
	_, err = opts.RootsHandler(context.Background(), &core.ListRootsRequest{})
	var rpc *core.RPCError
	require.ErrorAs(t, err, &rpc)
	assert.Equal(t, int64(core.CodeInternalError), rpc.Code)

	r.answer, r.answerEr = nil, &core.RPCError{Code: -1, Message: "no"}
	_, err = opts.SamplingHandler(context.Background(), &core.CreateMessageRequest{Params: &core.CreateMessageParams{}})
	require.ErrorAs(t, err, &rpc)
	assert.Equal(t, int64(-1), rpc.Code, "the host's code is kept")

	opts.LoggingHandler(context.Background(), nil, &core.LoggingMessageParams{Level: "info", Data: rawjson.RawMessage(`"hi"`)})
	opts.ToolListChangedHandler(context.Background(), nil)
	assert.Equal(t, []string{`notifications/message {"level":"info","data":"hi"}`, "notifications/tools/list_changed "}, r.notified)
}

// TestErrorInfo: one classification for every host, in the words of the
// JavaScript McpError.
func TestErrorInfo(t *testing.T) {
	oe := &auth.Error{Code: "invalid_client", Description: "no such client", StatusCode: 401, Endpoint: "token"}
	for _, c := range []struct {
		name   string
		err    error
		kind   string
		code   int64
		status int
		data   string
	}{
		{"rpc", fmt.Errorf("x: %w", &core.RPCError{Code: -32602, Message: "bad", Data: rawjson.RawMessage(`{"a":1}`)}), KindRPC, -32602, 0, `{"a":1}`},
		{"timeout", &core.TimeoutError{Method: "tools/call"}, KindTimeout, CodeRequestTimeout, 0, ""},
		{"cancelled", context.Canceled, KindAbort, CodeRequestTimeout, 0, ""},
		{"closed", fmt.Errorf("%w: gone", core.ErrClosed), KindClosed, CodeConnectionClosed, 0, ""},
		{"http", &fetch.StatusError{StatusCode: 503}, KindHTTP, CodeConnectionClosed, 503, ""},
		{"network", fmt.Errorf("%w: refused", fetch.ErrNetwork), KindTransport, CodeConnectionClosed, 0, ""},
		{"cors", fetch.ErrHiddenHeader, KindCORS, CodeConnectionClosed, 0, ""},
		{"not supported", core.ErrNotSupported, KindProtocol, core.CodeMethodNotFound, 0, ""},
		{"repeated cursor", core.ErrRepeatedCursor, KindProtocol, core.CodeInternalError, 0, ""},
		{"input before rpc", &core.InputError{Method: "sampling/createMessage", Err: &core.RPCError{Code: -1, Message: "no"}}, KindInput, core.CodeInternalError, 0, ""},
		{"output schema", WithResult(&core.OutputSchemaError{Tool: "t", Err: errors.New("x")}, rawjson.RawMessage(`{"content":[]}`)), KindOutputSchema, core.CodeInvalidParams, 0, `{"result":{"content":[]}}`},
		{"auth", &AuthError{Err: errors.Join(errors.New("auth: token request"), oe)}, KindAuth, CodeConnectionClosed, 401, `{"error":"invalid_client","errorDescription":"no such client","endpoint":"token"}`},
		{"config", invalidf("client options: x"), KindInvalid, core.CodeInvalidParams, 0, ""},
		{"other", errors.New("boom"), KindInternal, core.CodeInternalError, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := ErrorInfo(c.err, TaskStateJS)
			assert.Equal(t, c.kind, e.Kind)
			assert.Equal(t, c.code, e.Code)
			assert.Equal(t, c.status, e.Status)
			if c.data == "" {
				assert.Empty(t, e.Data)
			} else {
				assert.JSONEq(t, c.data, string(e.Data))
			}
		})
	}
}

// failingDoer fails every request the way a host reports a network error.
type failingDoer struct{}

func (failingDoer) Do(context.Context, *fetch.Request) (*fetch.Response, error) {
	return nil, fmt.Errorf("%w: connection refused", fetch.ErrNetwork)
}

// TestAuthDoer: the configuration is checked before anything is sent, and
// the request's own failure keeps its kind while the authorization's
// failures are kind "auth".
func TestAuthDoer(t *testing.T) {
	ua := &nopAgent{}
	for _, c := range []struct {
		name  string
		cfg   AuthConfig
		hooks *AuthHooks
		err   string
	}{
		{"host agent without redirect URI", AuthConfig{}, &AuthHooks{UserAgent: ua}, "redirectUri"},
		{"host agent the host lacks", AuthConfig{UserAgent: UserAgentHost}, nil, "no user agent"},
		{"unknown user agent", AuthConfig{UserAgent: "carrier-pigeon"}, nil, "unknown userAgent"},
		{"unknown grant", AuthConfig{Grant: "password"}, nil, "unknown grant"},
		{"jwt bearer without assertion", AuthConfig{Grant: GrantJWTBearer, ClientID: "c"}, nil, "assertion"},
		{"assertion with another grant", AuthConfig{Grant: GrantClientCredentials, ClientID: "c", Assertion: "x"}, nil, "assertion"},
		{"two assertions", AuthConfig{Assertion: "x", IDJAG: &IDJAGConfig{TokenEndpoint: "https://idp/t", SubjectToken: "s"}}, nil, "exactly one"},
		{"idjag without subject", AuthConfig{IDJAG: &IDJAGConfig{TokenEndpoint: "https://idp/t"}}, nil, "subject token"},
		{"secret without client id", AuthConfig{ClientSecret: "s"}, nil, "clientId"},
		{"bad private key", AuthConfig{Grant: GrantClientCredentials, ClientID: "c", PrivateKeyPEM: "no"}, nil, "privateKeyPem"},
		{"unknown auth method", AuthConfig{Grant: GrantClientCredentials, ClientID: "c", AuthMethod: "magic"}, nil, "unknown authMethod"},
		{"unbounded authorization", AuthConfig{Grant: GrantClientCredentials, ClientID: "c", AuthorizationTimeoutMs: ms(0)}, nil, "authorizationTimeoutMs must be positive"},
		{"bad application type", AuthConfig{ApplicationType: "desktop"}, nil, "applicationType"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := AuthDoer(failingDoer{}, &c.cfg, c.hooks)
			var ce *ConfigError
			require.ErrorAs(t, err, &ce)
			assert.Contains(t, err.Error(), c.err)
		})
	}

	t.Run("an assertion implies the jwt bearer grant", func(t *testing.T) {
		_, err := AuthDoer(failingDoer{}, &AuthConfig{ClientID: "c", Assertion: "x"}, nil)
		require.NoError(t, err)
	})

	t.Run("the request's own failure is not an auth failure", func(t *testing.T) {
		d, err := AuthDoer(failingDoer{}, &AuthConfig{Grant: GrantClientCredentials, ClientID: "c", ClientSecret: "s"}, nil)
		require.NoError(t, err)
		_, err = d.Do(context.Background(), &fetch.Request{Method: "POST", URL: "http://127.0.0.1:1/mcp"})
		require.Error(t, err)
		var ae *AuthError
		assert.False(t, errors.As(err, &ae), "%v", err)
		assert.Equal(t, KindTransport, ErrorInfo(err, TaskStateJS).Kind, "%v", err)
	})
}

type nopAgent struct{}

func (*nopAgent) RedirectURI() string { return "https://app.example/cb" }
func (*nopAgent) Authorize(context.Context, string) (string, error) {
	return "", errors.New("no")
}

// TestParamsAndConnect: request params are an object or nothing; the
// connect configuration names its transport.
func TestParamsAndConnect(t *testing.T) {
	for in, want := range map[string]string{"": "", "null": "", " null ": "", `{"a":1}`: `{"a":1}`, ` {"a":1}`: ` {"a":1}`} {
		p, err := Params(rawjson.RawMessage(in))
		require.NoError(t, err, "%q", in)
		assert.Equal(t, want, string(p))
	}
	for _, in := range []string{"[1]", `"x"`, "3"} {
		_, err := Params(rawjson.RawMessage(in))
		assert.Error(t, err, in)
	}
	for _, c := range []struct {
		cfg   ConnectConfig
		ws    bool
		err   string
		fetch string
	}{
		{ConnectConfig{}, false, "", TransportAuto},
		{ConnectConfig{Transport: TransportSSE}, false, "", TransportSSE},
		{ConnectConfig{Transport: TransportWebSocket}, false, "not available in this host", ""},
		{ConnectConfig{Transport: TransportWebSocket}, true, "", TransportWebSocket},
		{ConnectConfig{Transport: TransportWebSocket, Auth: &AuthConfig{}}, true, "auth applies to the HTTP transports", ""},
		{ConnectConfig{Transport: "carrier-pigeon"}, true, "unknown transport", ""},
		{ConnectConfig{Transport: TransportPort}, true, "not available in this host", ""},
		{ConnectConfig{RetryMs: ms(-1)}, false, "retryMs", ""},
		{ConnectConfig{ProtocolVersions: []string{"1999-01-01"}}, false, "unsupported protocol version", ""},
	} {
		err := c.cfg.Check(Host{WebSocket: c.ws})
		if c.err != "" {
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.fetch, c.cfg.FetchTransportMode())
	}
}
