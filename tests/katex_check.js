#!/usr/bin/env node
// Render every $...$ and $$...$$ span of the given Markdown files with KaTeX
// (throwOnError: true). Exit 1 on the first failure, naming the file and the span.
// Usage: node tests/katex_check.js FILE.md ...   (katex from .ci/node/node_modules)
"use strict";
const fs = require("fs");
const path = require("path");

function loadKatex() {
  const local = path.join(__dirname, "..", ".ci", "node", "node_modules", "katex");
  try { return require(local); } catch (e) { return require("katex"); }
}

// Split Markdown into math spans; a backslash escapes the next character (\$ is text).
function spans(text) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") { i += 2; continue; }
    if (c === "`") {  // code span: skip to the closing run of as many backticks
      let n = 0;
      while (text[i + n] === "`") n += 1;
      const fence = "`".repeat(n);
      let end = text.indexOf(fence, i + n);
      while (end >= 0 && text[end + n] === "`") {  // a longer run does not close it
        let k = end;
        while (text[k] === "`") k += 1;
        end = text.indexOf(fence, k);
      }
      i = end < 0 ? text.length : end + n;
      continue;
    }
    if (c !== "$") { i += 1; continue; }
    const display = text[i + 1] === "$";
    const open = display ? 2 : 1;
    let j = i + open;
    while (j < text.length) {
      if (text[j] === "\\") { j += 2; continue; }
      if (text[j] === "$" && (!display || text[j + 1] === "$")) break;
      j += 1;
    }
    if (j >= text.length) throw new Error("unclosed math starting: " + text.slice(i, i + 40));
    out.push({ tex: text.slice(i + open, j), display });
    i = j + open;
  }
  return out;
}

function main(files) {
  if (files.length === 0) { console.error("usage: katex_check.js FILE.md ..."); return 2; }
  const katex = loadKatex();
  let count = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    let found;
    try { found = spans(text); } catch (e) { console.error(`${file}: ${e.message}`); return 1; }
    for (const s of found) {
      try {
        katex.renderToString(s.tex, { throwOnError: true, displayMode: s.display, strict: "ignore" });
        count += 1;
      } catch (e) {
        console.error(`${file}: cannot render ${s.display ? "$$" : "$"}${s.tex}${s.display ? "$$" : "$"}: ${e.message}`);
        return 1;
      }
    }
  }
  console.log(`katex: ${count} math spans rendered in ${files.length} files`);
  return 0;
}

process.exit(main(process.argv.slice(2)));
