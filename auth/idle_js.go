//go:build js

package auth

import "time"

// releaseIdleTimer is called when an authorization's timeout timer has been
// stopped. The GOOS=js runtime arms one JavaScript timeout for its earliest
// Go timer whenever it waits for events, and leaves that timeout armed
// when the timer is stopped and no other timer replaces it — so a stopped
// Options.AuthorizationTimeout would keep Node running for up to ten
// minutes after the program is done. Short timers pending while the
// runtime next waits make it replace the stale timeout with theirs, which
// it clears when they fire; a few in a row make sure one of them is
// pending at such a moment.
func releaseIdleTimer() {
	go func() {
		for range 3 {
			// A timer, not time.Sleep: the module links NewTimer anyway.
			<-time.NewTimer(20 * time.Millisecond).C
		}
	}()
}
