#!/usr/bin/env node
process.stdout.write("iris\n");
