#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=50
// `countersign`: the connector's command line, compiled into dist/ by `npm run build` (which
// `npm ci` runs).
//
// The first line holds the heap settings production runs with (docs/decisions.md, "The
// connector's memory"): a young generation of at most 8 MB a half instead of 16, and an old
// generation let grow by half its live size before it is collected, instead of up to four times.
// Under the bench's load that keeps the process near 155 MB instead of 280, for the same CPU a
// call. Run it as a command (npm's link, the container's CMD, a systemd ExecStart) so that they
// apply; the tests and the bench read them from this line.
import '../dist/cli/main.js'
