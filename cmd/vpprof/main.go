package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/mcm/outcome"
)

func main() {
	cfg := herd.Default()
	cfg.Show = outcome.ShowAll
	start := time.Now()
	n := 0
	brief := os.Args[2] == "brief"
	_, err := herd.NewChecker(cfg).CheckVisiting(context.Background(), os.Args[1], func(v outcome.Visited) bool {
		if os.Args[2] != "none" {
			v.Build(brief)
		}
		n++
		return true
	})
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Println(err, n, time.Since(start), ms.HeapSys>>20)
}
