package nozero_test

import (
	"fmt"

	"github.com/mcpwasm/mcpwasm/internal/nozero"
)

func ExampleAppend() {
	line := nozero.Append(nil, []byte("data: "), []byte("{}"))
	fmt.Println(string(line), len(line) == cap(line))
	// Output: data: {} true
}
