// node mangle_js.cjs <emscripten root> <file.js>
// Shortens the local names of emscripten's JS glue in place (3.1.6 from Debian has no closure compiler). Uses
// the acorn parser and the terser mangler that emscripten itself ships, so the build needs nothing new. Top-level
// names (createKvcalcApp) stay; every string the glue turns into code (embind's new Function) gets its values as
// parameters, so renaming locals is safe (the same property closure's renaming relies on).
'use strict';
const fs = require('fs');
const path = require('path');
const [root, file] = process.argv.slice(2);
const acorn = require('acorn');
const terser = require(path.join(root, 'third_party/terser/terser.js'));
const source = fs.readFileSync(file, 'utf8');
const ast = terser.AST_Node.from_mozilla_ast(acorn.parse(source, { ecmaVersion: 2020 }));
ast.figure_out_scope({});
ast.compute_char_frequency({});
ast.mangle_names({});
fs.writeFileSync(file, ast.print_to_string({ beautify: false }));
