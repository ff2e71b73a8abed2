//go:build !js && !wasip1

// Package js_test checks the rule internal/js exists for: under GOOS=js
// only the packages under internal/js and the wasm/js entry point import
// syscall/js, so the library (core, auth, the transports, the schema
// validator) stays plain Go with its JavaScript injected.
package js_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOnlyInternalJSImportsSyscallJS(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	cmd := exec.Command(goBin, "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/mcpwasm/mcpwasm/...")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	require.NoError(t, err)
	var importers []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		for _, imp := range strings.Fields(imports) {
			if imp == "syscall/js" {
				importers = append(importers, pkg)
			}
		}
	}
	const mod = "github.com/mcpwasm/mcpwasm/"
	require.NotEmpty(t, importers, "the listing found the JavaScript packages")
	for _, p := range importers {
		ok := strings.HasPrefix(p, mod+"internal/js/") || p == mod+"wasm/js"
		assert.True(t, ok, "%s imports syscall/js: move the JavaScript part under internal/js and inject it", p)
	}
	// The library's packages and what they depend on: none of the
	// module's packages among their dependencies imports syscall/js (the
	// standard library's syscall and time do, under GOOS=js).
	for _, root := range []string{"core", "auth", "transport/fetch", "transport/ws", "internal/jsonschema"} {
		cmd := exec.Command(goBin, "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+root)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		require.NoError(t, err, root)
		for _, line := range strings.Split(string(out), "\n") {
			pkg, imports, _ := strings.Cut(line, " ")
			if strings.HasPrefix(pkg, mod) {
				assert.NotContains(t, strings.Fields(imports), "syscall/js", "%s (a dependency of %s) imports syscall/js", pkg, root)
			}
		}
	}
}
