#!/usr/bin/env node
// `countersign`: the connector's command line, compiled into dist/ by `npm run build` (which
// `npm ci` runs).
import '../dist/cli/main.js'
