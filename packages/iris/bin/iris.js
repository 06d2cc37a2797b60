#!/usr/bin/env node
// Plain JS so npm can link the bin before the TypeScript build has run.
import "../dist/cli/main.js";
