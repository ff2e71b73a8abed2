package core

import (
	"encoding/json"
)

// mustMarshal is json.Marshal for tests (the package encodes by hand).
func mustMarshal(v any) RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
