package wasihost

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

type docFunc struct {
	name    string
	params  []string
	results []string
}

var docHeading = regexp.MustCompile("^### `([a-z_0-9]+)\\(([^)]*)\\)(?: -> ([a-z0-9]+))?`$")

// parseDoc returns the functions documented under "## Exports" and
// "## Imports" of docs/wasi-abi.md.
func parseDoc(t *testing.T, doc string) (exports, imports []docFunc) {
	t.Helper()
	section := ""
	for line := range strings.Lines(doc) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimPrefix(line, "## ")
			continue
		}
		m := docHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := docFunc{name: m[1]}
		for _, p := range strings.Split(m[2], ",") {
			if p = strings.TrimSpace(p); p != "" {
				_, typ, ok := strings.Cut(p, ": ")
				require.True(t, ok, "parameter %q of %s has no type", p, f.name)
				f.params = append(f.params, typ)
			}
		}
		if m[3] != "" {
			f.results = []string{m[3]}
		}
		switch section {
		case "Exports":
			exports = append(exports, f)
		case "Imports":
			imports = append(imports, f)
		}
	}
	return exports, imports
}

func typeNames(ts []api.ValueType) []string {
	var out []string
	for _, t := range ts {
		out = append(out, api.ValueTypeName(t))
	}
	return out
}

// TestABIDocument checks docs/wasi-abi.md against the module and package
// abi: the exports and imports with their signatures, the status codes,
// event types, error kinds and the members of every JSON message.
func TestABIDocument(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(peerproc.RepoRoot(t), "docs", "wasi-abi.md"))
	require.NoError(t, err)
	doc := string(b)
	exports, imports := parseDoc(t, doc)

	mod := BuildTestModule(t)
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(mod.Cache))
	defer rt.Close(ctx)
	compiled, err := rt.CompileModule(ctx, mod.Wasm)
	require.NoError(t, err)

	var docExports []string
	for _, f := range exports {
		docExports = append(docExports, f.name)
		def, ok := compiled.ExportedFunctions()[f.name]
		if !assert.True(t, ok, "documented export %s is missing from the module", f.name) {
			continue
		}
		assert.Equal(t, typeNames(def.ParamTypes()), f.params, "parameters of %s", f.name)
		assert.Equal(t, typeNames(def.ResultTypes()), f.results, "results of %s", f.name)
	}
	assert.Equal(t, abi.Exports, docExports, "package abi and the document list the same exports in the same order")
	for name := range compiled.ExportedFunctions() {
		if name == abi.ExportDebugTrap { // the test module is a debug build
			assert.Contains(t, doc, "`"+name+"(kind: i32) -> i32`", "the debug export is documented under Debug builds")
			continue
		}
		if strings.HasPrefix(name, "mcpwasm_") {
			assert.Contains(t, docExports, name, "export %s is not documented", name)
		}
	}

	var docImports []string
	for _, f := range imports {
		docImports = append(docImports, f.name)
	}
	assert.Equal(t, abi.Imports, docImports)
	seen := map[string]bool{}
	for _, def := range compiled.ImportedFunctions() {
		module, name, _ := def.Import()
		if module != abi.ImportModule {
			continue
		}
		seen[name] = true
		i := slices.IndexFunc(imports, func(f docFunc) bool { return f.name == name })
		if !assert.GreaterOrEqual(t, i, 0, "import %s is not documented", name) {
			continue
		}
		assert.Equal(t, typeNames(def.ParamTypes()), imports[i].params, "parameters of %s", name)
		assert.Equal(t, typeNames(def.ResultTypes()), imports[i].results, "results of %s", name)
	}
	for _, f := range imports {
		assert.True(t, seen[f.name], "documented import %s is not imported by the module", f.name)
	}

	assert.True(t, strings.HasPrefix(doc, fmt.Sprintf("# mcpwasm WASI ABI, version %d\n", abi.Version)), "the title names the ABI version")
	assert.Contains(t, doc, fmt.Sprintf("returns the ABI version, **%d** for this page", abi.Version))
	assert.Contains(t, doc, fmt.Sprintf("The ABI version (%d).", abi.Version))
	for _, v := range []string{abi.GrantAuthorizationCode, abi.GrantClientCredentials, abi.GrantJWTBearer, abi.UserAgentHost, abi.UserAgentHeadless} {
		assert.Contains(t, doc, "`"+v+"`", "auth value %s is not documented", v)
	}
	for code, name := range map[int32]string{abi.StatusOK: "ok", abi.StatusInvalid: "invalid", abi.StatusNotFound: "not_found", abi.StatusClosed: "closed", abi.StatusInternal: "internal"} {
		assert.True(t, strings.Contains(doc, fmt.Sprintf("| `%d` | `%s` |", code, name)), "status %d (%s) is not documented", code, name)
	}
	for _, kind := range []string{abi.KindRPC, abi.KindTimeout, abi.KindAbort, abi.KindClosed, abi.KindInput, abi.KindOutputSchema,
		abi.KindTool, abi.KindProtocol, abi.KindUnsupportedVersion, abi.KindHTTP, abi.KindTransport, abi.KindCORS, abi.KindAuth,
		abi.KindURLElicitation, abi.KindInvalid, abi.KindInternal, abi.KindTask, abi.KindTaskCancelled} {
		assert.True(t, strings.Contains(doc, "| `"+kind+"` |"), "error kind %s is not documented", kind)
	}
	for _, typ := range []string{abi.EventResult, abi.EventProgress, abi.EventNotification, abi.EventRequest, abi.EventCancel, abi.EventClosed, abi.EventWarning,
		abi.EventAuthorize, abi.EventAuthStore, abi.EventLog} {
		assert.True(t, strings.Contains(doc, "| `"+typ+"` |"), "event type %s is not documented", typ)
	}
	for _, v := range []any{abi.ClientConfig{}, abi.ConnectRequest{}, abi.CallRequest{}, abi.AuthConfig{}, abi.RetryPolicy{}} {
		typ := reflect.TypeOf(v)
		for _, f := range reflect.VisibleFields(typ) {
			if f.Anonymous {
				continue // an embedded struct's members are promoted
			}
			member, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			assert.True(t, strings.Contains(doc, "| `"+member+"` |"), "%s member %s is not documented", typ.Name(), member)
		}
	}
	for _, v := range []any{abi.ConnectResult{}, abi.Event{}, abi.HTTPRequestHead{}, abi.HTTPResponseHead{}, abi.Answer{}, abi.Error{}, abi.Handlers{},
		abi.IDJAGConfig{}, abi.AuthorizeResult{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			member, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			assert.True(t, strings.Contains(doc, `"`+member+`"`) || strings.Contains(doc, "`"+member+"`"), "%s member %s is not documented", typ.Name(), member)
		}
	}
}

// TestGuestDoesNotLinkNetHTTP: the reactor reaches the network only through
// its host, and net/http (megabytes) stays out of it.
func TestGuestDoesNotLinkNetHTTP(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./wasm/wasip1")
	cmd.Dir = peerproc.RepoRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/mcpwasm/mcpwasm/core")
	require.Contains(t, deps, "github.com/mcpwasm/mcpwasm/transport/fetch")
	for _, banned := range []string{"net/http", "crypto/tls", "syscall/js"} {
		assert.NotContains(t, deps, banned)
	}
}
