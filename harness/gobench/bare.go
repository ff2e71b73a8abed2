//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// bareClient is the floor of any client in a Go process: a hand-written
// JSON-RPC loop over one kept-alive HTTP/1.1 connection, no MCP library
// (the native twin of the bare-fetch loop of bench/client.mjs). It writes
// each request whole, reads the answer with http.ReadResponse and takes
// the message with its id from a JSON or an event-stream body.
type bareClient struct {
	conn    net.Conn
	br      *bufio.Reader
	host    string
	path    string
	legacy  bool
	session string
	id      int
}

func dialBare(ctx context.Context, rawURL, version string) (*bareClient, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	c := &bareClient{conn: conn, br: bufio.NewReader(conn), host: u.Host, path: u.RequestURI(), legacy: version == legacyVersion}
	if c.legacy {
		if _, err := c.rpc(ctx, "initialize", `{"protocolVersion":"`+legacyVersion+`","capabilities":{},"clientInfo":{"name":"bench-bare","version":"1.0.0"}}`, ""); err != nil {
			conn.Close()
			return nil, err
		}
		if _, _, err := c.post(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), "notifications/initialized", ""); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return c, nil
}

// bareMeta is what every modern request carries in _meta.
const bareMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modernVersion + `","io.modelcontextprotocol/clientInfo":{"name":"bench-bare","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}`

// post sends one message and returns the answer's content type and body.
func (c *bareClient) post(ctx context.Context, body []byte, method, name string) (string, []byte, error) {
	if dl, ok := ctx.Deadline(); ok {
		c.conn.SetDeadline(dl)
	}
	var b bytes.Buffer
	b.WriteString("POST " + c.path + " HTTP/1.1\r\nHost: " + c.host + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n")
	if c.legacy {
		if c.session != "" {
			b.WriteString("Mcp-Session-Id: " + c.session + "\r\nMcp-Protocol-Version: " + legacyVersion + "\r\n")
		}
	} else {
		b.WriteString("Mcp-Protocol-Version: " + modernVersion + "\r\nMcp-Method: " + method + "\r\n")
		if name != "" {
			b.WriteString("Mcp-Name: " + name + "\r\n")
		}
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n")
	b.Write(body)
	if _, err := c.conn.Write(b.Bytes()); err != nil {
		return "", nil, err
	}
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		return "", nil, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return "", nil, err
	}
	if resp.Close {
		return "", nil, errors.New("the server closed the connection")
	}
	if c.legacy && c.session == "" {
		c.session = resp.Header.Get("Mcp-Session-Id")
	}
	if resp.StatusCode/100 != 2 {
		return "", nil, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, data)
	}
	return resp.Header.Get("Content-Type"), data, nil
}

type bareMessage struct {
	ID     *int            `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// rpc sends a request (params a JSON object) and returns its result.
func (c *bareClient) rpc(ctx context.Context, method, params, name string) (json.RawMessage, error) {
	c.id++
	id := c.id
	if !c.legacy {
		if params == "{}" {
			params = "{" + bareMeta + "}"
		} else {
			params = params[:len(params)-1] + "," + bareMeta + "}"
		}
	}
	body := []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":` + params + `}`)
	ct, data, err := c.post(ctx, body, method, name)
	if err != nil {
		return nil, err
	}
	var datas [][]byte
	if bytes.HasPrefix([]byte(ct), []byte("text/event-stream")) {
		for ev := range bytes.SplitSeq(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n\n")) {
			var d []byte
			for line := range bytes.SplitSeq(ev, []byte("\n")) {
				if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
					d = append(d, bytes.TrimPrefix(v, []byte(" "))...)
				}
			}
			if len(d) > 0 {
				datas = append(datas, d)
			}
		}
	} else {
		datas = [][]byte{data}
	}
	for _, d := range datas {
		var m bareMessage
		if err := json.Unmarshal(d, &m); err != nil || m.ID == nil || *m.ID != id {
			continue
		}
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %d %s", method, m.Error.Code, m.Error.Message)
		}
		return m.Result, nil
	}
	return nil, fmt.Errorf("no answer to %s", method)
}

func (c *bareClient) echo(ctx context.Context, text string) (string, error) {
	args, _ := json.Marshal(map[string]string{"text": text})
	res, err := c.rpc(ctx, "tools/call", `{"name":"echo","arguments":`+string(args)+`}`, "echo")
	if err != nil {
		return "", err
	}
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(res, &r); err != nil || len(r.Content) == 0 {
		return "", fmt.Errorf("echo: unexpected result %.200s", res)
	}
	return r.Content[0].Text, nil
}

func (c *bareClient) listTools(ctx context.Context) ([]string, error) {
	res, err := c.rpc(ctx, "tools/list", "{}", "")
	if err != nil {
		return nil, err
	}
	var r struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return nil, err
	}
	var names []string
	for _, t := range r.Tools {
		names = append(names, t.Name)
	}
	return names, nil
}

func (c *bareClient) version() string {
	if c.legacy {
		return legacyVersion
	}
	return modernVersion
}

func (c *bareClient) close() error {
	c.conn.SetDeadline(time.Now().Add(5 * time.Second))
	return c.conn.Close()
}
