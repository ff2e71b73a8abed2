package bridge

import (
	"unsafe"

	"github.com/mcpwasm/mcpwasm/core"
)

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

var callToolParamsObj = Object{Struct: "CallToolParams", Type: "core.CallToolParams", Members: []ObjectMember{
	{Name: "_meta", Kind: KMeta, Off: unsafe.Offsetof(core.CallToolParams{}.Meta)},
	{Name: "name", Kind: KString, Off: unsafe.Offsetof(core.CallToolParams{}.Name)},
	{Name: "arguments", Kind: KAny, Off: unsafe.Offsetof(core.CallToolParams{}.Arguments)},
}}

// UnmarshalCallToolParams decodes tools/call params into p.
func UnmarshalCallToolParams(b []byte, p *core.CallToolParams) error {
	return Unmarshal(b, decodeAs{&callToolParamsObj, unsafe.Pointer(p)})
}

var paginatedParamsObj = Object{Struct: "PaginatedParams", Type: "core.PaginatedParams", Members: []ObjectMember{
	{Name: "_meta", Kind: KMeta, Off: unsafe.Offsetof(core.PaginatedParams{}.Meta)},
	{Name: "cursor", Kind: KString, Off: unsafe.Offsetof(core.PaginatedParams{}.Cursor)},
}}

// UnmarshalPaginatedParams decodes a list request's params into p.
func UnmarshalPaginatedParams(b []byte, p *core.PaginatedParams) error {
	return Unmarshal(b, decodeAs{&paginatedParamsObj, unsafe.Pointer(p)})
}

var subscriptionFilterObj = Object{Struct: "SubscriptionFilter", Type: "core.SubscriptionFilter", Members: []ObjectMember{
	{Name: "toolsListChanged", Kind: KBool, Off: unsafe.Offsetof(core.SubscriptionFilter{}.ToolsListChanged)},
	{Name: "promptsListChanged", Kind: KBool, Off: unsafe.Offsetof(core.SubscriptionFilter{}.PromptsListChanged)},
	{Name: "resourcesListChanged", Kind: KBool, Off: unsafe.Offsetof(core.SubscriptionFilter{}.ResourcesListChanged)},
	{Name: "resourceSubscriptions", Kind: KStrings, Off: unsafe.Offsetof(core.SubscriptionFilter{}.ResourceSubscriptions)},
	{Name: "taskIds", Kind: KStrings, Off: unsafe.Offsetof(core.SubscriptionFilter{}.TaskIDs)},
}}

// UnmarshalSubscriptionFilter decodes a subscriptions/listen filter into f.
func UnmarshalSubscriptionFilter(b []byte, f *core.SubscriptionFilter) error {
	return Unmarshal(b, decodeAs{&subscriptionFilterObj, unsafe.Pointer(f)})
}
