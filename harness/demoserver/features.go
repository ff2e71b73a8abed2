package demoserver

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource URIs.
const (
	staticTextURI = "test://static/text"
	staticBlobURI = "test://static/blob"
	itemsTemplate = "test://items/{id}"
	itemsPrefix   = "test://items/"
)

var (
	itemIDs     = []string{"1", "2", "10", "20"}
	greetStyles = []string{"formal", "casual"}
	blobBytes   = func() []byte {
		b := make([]byte, 16)
		for i := range b {
			b[i] = byte(i)
		}
		return b
	}()
	tinyPNG = func() []byte {
		img := image.NewRGBA(image.Rect(0, 0, 1, 1))
		img.Set(0, 0, color.RGBA{R: 255, A: 255})
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			panic(err)
		}
		return buf.Bytes()
	}()
	// tinyWAV is 8 samples of 8-bit mono silence at 8 kHz.
	tinyWAV = func() []byte {
		const samples = 8
		var b bytes.Buffer
		le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
		b.WriteString("RIFF")
		le(uint32(36 + samples))
		b.WriteString("WAVEfmt ")
		le(uint32(16))   // fmt chunk size
		le(uint16(1))    // PCM
		le(uint16(1))    // mono
		le(uint32(8000)) // sample rate
		le(uint32(8000)) // byte rate
		le(uint16(1))    // block align
		le(uint16(8))    // bits per sample
		b.WriteString("data")
		le(uint32(samples))
		b.Write(bytes.Repeat([]byte{128}, samples))
		return b.Bytes()
	}()
)

func (s *Server) addResources() {
	s.mcp.AddResource(&mcp.Resource{URI: staticTextURI, Name: "static-text", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "hello resource"}}}, nil
		})
	s.mcp.AddResource(&mcp.Resource{URI: staticBlobURI, Name: "static-blob", MIMEType: "application/octet-stream"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/octet-stream", Blob: blobBytes}}}, nil
		})
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: itemsTemplate, Name: "items", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			id, ok := strings.CutPrefix(req.Params.URI, itemsPrefix)
			if !ok || id == "" {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "item " + id}}}, nil
		})
	for i := range 25 {
		uri := fmt.Sprintf("test://many/%02d", i)
		text := fmt.Sprintf("many %02d", i)
		s.mcp.AddResource(&mcp.Resource{URI: uri, Name: fmt.Sprintf("many-%02d", i), MIMEType: "text/plain"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}, nil
			})
	}
}

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{
		Name:        "greet",
		Description: "Greets name, optionally in a style.",
		Arguments: []*mcp.PromptArgument{
			{Name: "name", Description: "who to greet", Required: true},
			{Name: "style", Description: "formal or casual"},
		},
	}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		name := req.Params.Arguments["name"]
		if name == "" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `missing required argument "name"`}
		}
		text := "Hello, " + name + "!"
		if style := req.Params.Arguments["style"]; style != "" {
			text += " (" + style + ")"
		}
		return &mcp.GetPromptResult{
			Description: "A greeting",
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
		}, nil
	})
	s.mcp.AddPrompt(&mcp.Prompt{Name: "with_image", Description: "A user message with an image."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{
				Role: "user", Content: &mcp.ImageContent{Data: tinyPNG, MIMEType: "image/png"},
			}}}, nil
		})
	s.mcp.AddPrompt(&mcp.Prompt{Name: "with_resource", Description: "A user message with an embedded resource."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{
				Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
					URI: staticTextURI, MIMEType: "text/plain", Text: "hello resource",
				}},
			}}}, nil
		})
}

// complete answers completion/complete for the greet prompt's style
// argument and the items template's id variable.
func (s *Server) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	var candidates []string
	ref, arg := req.Params.Ref, req.Params.Argument
	switch {
	case ref.Type == "ref/prompt" && ref.Name == "greet" && arg.Name == "style":
		candidates = greetStyles
	case ref.Type == "ref/resource" && ref.URI == itemsTemplate && arg.Name == "id":
		candidates = itemIDs
	}
	values := []string{}
	for _, c := range candidates {
		if strings.HasPrefix(c, arg.Value) {
			values = append(values, c)
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}

// defaultLegacyLogLevel makes legacy sessions start at log level "debug"
// (as the TypeScript SDK does: everything is sent until logging/setLevel),
// instead of the Go SDK default of sending nothing until logging/setLevel.
// It replays a logging/setLevel through the rest of the chain right after a
// successful initialize. Modern requests are unaffected: their level comes
// from _meta and an absent level means no notifications/message (spec).
func defaultLegacyLogLevel(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil && method == "initialize" {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
				_, _ = next(ctx, "logging/setLevel", &mcp.ServerRequest[*mcp.SetLoggingLevelParams]{
					Session: ss,
					Params:  &mcp.SetLoggingLevelParams{Level: "debug"},
				})
			}
		}
		return res, err
	}
}

// stateKey signs MRTR requestState values. It is per process: a state is
// only valid for the process that minted it, which is enough for a test
// peer (a deployment behind a load balancer would share the key).
var stateKey = func() []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		panic(err)
	}
	return k
}()

// sealState encodes v as base64url(JSON) + "." + base64url(HMAC-SHA256).
func (s *Server) sealState(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	payload := base64.RawURLEncoding.EncodeToString(b)
	return payload + "." + base64.RawURLEncoding.EncodeToString(mac(payload)), nil
}

// openState verifies and decodes a state produced by sealState.
func (s *Server) openState(state string, v any) error {
	payload, sig, ok := strings.Cut(state, ".")
	if !ok {
		return errors.New("malformed")
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, mac(payload)) {
		return errors.New("bad signature")
	}
	b, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func mac(payload string) []byte {
	h := hmac.New(sha256.New, stateKey)
	h.Write([]byte(payload))
	return h.Sum(nil)
}
