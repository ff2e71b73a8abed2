package nozero_test

import (
	"fmt"

	"github.com/mcpwasm/mcpwasm/internal/nozero"
)

func ExampleGrow() {
	line := nozero.Grow([]byte("data: "), 64)
	line = append(line, "{}"...) // only the bytes appended are read
	fmt.Println(string(line), cap(line) >= 64)
	// Output: data: {} true
}
