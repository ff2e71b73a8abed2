//go:build !js

package auth

// releaseIdleTimer is a no-op outside GOOS=js (see idle_js.go).
func releaseIdleTimer() {}
