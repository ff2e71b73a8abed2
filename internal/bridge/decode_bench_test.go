package bridge

import "testing"

// BenchmarkDecodeCallOptions: the per-call options of the JavaScript fast
// lane, decoded strictly (the hand-written decoder and encoding/json's, as
// before).
func BenchmarkDecodeCallOptions(b *testing.B) {
	in := []byte(`{"timeoutMs":30000,"resetTimeoutOnProgress":true,"meta":{"trace":"t1"}}`)
	b.Run("bridge", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var o CallOptions
			if err := Decode(in, &o, "call options"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var o CallOptions
			if err := jsonDecode(in, &o, "call options"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
