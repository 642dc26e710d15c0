package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// Most of purr's heap is garbage within a test (formulas, evaluated
// relations, states), and Go's default collector (GOGC=100) spent a
// quarter of the CPU time of a batch of small tests. purr lets the heap
// grow to five times what is live instead, until a check keeps more than
// largeHeap live: then memory matters more, and the default comes back.
// A GOGC set in the environment wins.
const (
	relaxedGC = 400
	largeHeap = 512 << 20
)

func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(relaxedGC)
	watchHeap()
}

// watchHeap checks the live heap after each collection (a finalizer runs
// once per cycle that frees its sentinel) and restores the default
// collector for good when it is large.
func watchHeap() {
	sentinel := new([16]byte)
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		// runtime/metrics would give the live heap exactly, but its package
		// initialisation costs every run of purr more than this read
		// costs a collection; the heap just after one is close enough.
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapAlloc > largeHeap {
			debug.SetGCPercent(100)
			return
		}
		watchHeap()
	})
}
