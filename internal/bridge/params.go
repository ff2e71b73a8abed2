package bridge

import "github.com/mcpwasm/mcpwasm/core"

// The hosts' other arguments: core types decoded as encoding/json's
// Unmarshal decoded them (unknown members ignored, the same messages).

// rootList is a []*core.Root to decode.
type rootList []*core.Root

// DecodeSchema implements Decodable.
func (r *rootList) DecodeSchema(d *Decoder, val []byte) error {
	return decodeRoots(d, val, (*[]*core.Root)(r))
}

// UnmarshalRoots decodes a JSON array of roots.
func UnmarshalRoots(b []byte) ([]*core.Root, error) {
	var r rootList
	if err := Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return r, nil
}

type callToolParams core.CallToolParams

var callToolParamsNames = []string{"_meta", "name", "arguments"}

// DecodeSchema implements Decodable.
func (p *callToolParams) DecodeSchema(d *Decoder, val []byte) error {
	return d.Fields(val, "CallToolParams", "core.CallToolParams", callToolParamsNames, &p.Meta, &p.Name, &p.Arguments)
}

// UnmarshalCallToolParams decodes tools/call params into p.
func UnmarshalCallToolParams(b []byte, p *core.CallToolParams) error {
	return Unmarshal(b, (*callToolParams)(p))
}

type paginatedParams core.PaginatedParams

var paginatedNames = []string{"_meta", "cursor"}

// DecodeSchema implements Decodable.
func (p *paginatedParams) DecodeSchema(d *Decoder, val []byte) error {
	return d.Fields(val, "PaginatedParams", "core.PaginatedParams", paginatedNames, &p.Meta, &p.Cursor)
}

// UnmarshalPaginatedParams decodes a list request's params into p.
func UnmarshalPaginatedParams(b []byte, p *core.PaginatedParams) error {
	return Unmarshal(b, (*paginatedParams)(p))
}

type subscriptionFilter core.SubscriptionFilter

var filterNames = []string{"toolsListChanged", "promptsListChanged", "resourcesListChanged", "resourceSubscriptions", "taskIds"}

// DecodeSchema implements Decodable.
func (f *subscriptionFilter) DecodeSchema(d *Decoder, val []byte) error {
	return d.Fields(val, "SubscriptionFilter", "core.SubscriptionFilter", filterNames,
		&f.ToolsListChanged, &f.PromptsListChanged, &f.ResourcesListChanged, &f.ResourceSubscriptions, &f.TaskIDs)
}

// UnmarshalSubscriptionFilter decodes a subscriptions/listen filter into f.
func UnmarshalSubscriptionFilter(b []byte, f *core.SubscriptionFilter) error {
	return Unmarshal(b, (*subscriptionFilter)(f))
}
