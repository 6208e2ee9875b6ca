#!/usr/bin/env node
// Render Markdown files the ways readers do and look for links or script in the result:
//   katex   markdown-it (html: true) + a dollar-math rule rendered by KaTeX
//   mathjax markdown-it (html: true), then MathJax 3 typesets the page ($...$, \(...\),
//           $$...$$, \[...\], environments; TeX input with all packages, incl. html)
//   mathjax-spans  markdown-it + a dollar-math rule that emits \(...\) / \[...\] for MathJax
// Prints one JSON line per file and renderer: {"file", "renderer", "math", "unsafe": [...]}.
// Usage: node tests/math_safety_check.js NODE_MODULES FILE.md ...
"use strict";
const fs = require("fs");
const path = require("path");

const base = path.resolve(process.argv[2]);
const need = (name) => require(path.join(base, name));
const MarkdownIt = need("markdown-it");
const katex = need("katex");
const { mathjax } = need("mathjax-full/js/mathjax.js");
const { TeX } = need("mathjax-full/js/input/tex.js");
const { SVG } = need("mathjax-full/js/output/svg.js");
const { liteAdaptor } = need("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = need("mathjax-full/js/handlers/html.js");
const { AllPackages } = need("mathjax-full/js/input/tex/AllPackages.js");

const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);

// The dollar-math rule of markdown-it-texmath style plugins: $$ blocks and $ inline spans.
function dollarMath(md, render) {
  md.inline.ruler.after("escape", "math_inline", (state, silent) => {
    const src = state.src;
    let pos = state.pos;
    if (src[pos] !== "$") return false;
    const display = src[pos + 1] === "$";
    const open = display ? 2 : 1;
    let end = pos + open;
    while (end < src.length) {
      if (src[end] === "\\") { end += 2; continue; }
      if (src[end] === "$" && (!display || src[end + 1] === "$")) break;
      end += 1;
    }
    if (end >= src.length) return false;
    if (!silent) {
      const token = state.push("math", "", 0);
      token.content = src.slice(pos + open, end);
      token.meta = { display };
    }
    state.pos = end + open;
    return true;
  });
  md.block.ruler.before("paragraph", "math_block", (state, start, endLine, silent) => {
    const line = state.src.slice(state.bMarks[start] + state.tShift[start], state.eMarks[start]);
    if (line.trim() !== "$$") return false;
    let next = start + 1;
    const body = [];
    while (next < endLine) {
      const l = state.src.slice(state.bMarks[next] + state.tShift[next], state.eMarks[next]);
      if (l.trim() === "$$") break;
      body.push(l);
      next += 1;
    }
    if (next >= endLine) return false;
    if (!silent) {
      const token = state.push("math", "", 0);
      token.content = body.join("\n");
      token.meta = { display: true };
      token.block = true;
    }
    state.line = next + 1;
    return true;
  });
  md.renderer.rules.math = (tokens, i) => render(tokens[i].content, tokens[i].meta.display);
}

const escapeHtml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
let mathCount = 0;

function katexPage(src) {
  const md = new MarkdownIt({ html: true, linkify: false });
  dollarMath(md, (tex, display) => {
    mathCount += 1;
    return katex.renderToString(tex, { displayMode: display, throwOnError: false, strict: "ignore" });
  });
  return md.render(src);
}

function mathjaxPage(html) {
  const doc = mathjax.document(html, {
    InputJax: new TeX({
      packages: AllPackages,
      inlineMath: [["$", "$"], ["\\(", "\\)"]],
      processEscapes: true,
      processEnvironments: true,
      processRefs: true,
    }),
    OutputJax: new SVG({ fontCache: "none" }),
  });
  doc.render();
  mathCount += Array.from(doc.math).length;
  return adaptor.outerHTML(adaptor.root(doc.document));
}

function unsafe(html) {
  // every attribute that links or runs: href/src anywhere, on* handlers, javascript: values
  const found = [];
  const tag = /<[a-zA-Z][^\s>\/]*([^>]*)>/g;
  const attr = /([^\s=\/]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/g;
  let t;
  while ((t = tag.exec(html)) !== null) {
    let a;
    while ((a = attr.exec(t[1])) !== null) {
      const name = a[1].toLowerCase();
      const value = a[2].replace(/^["']|["']$/g, "");
      if (name === "href" || name === "src" || name === "xlink:href" || name.startsWith("on")
          || /^\s*javascript:/i.test(value) || /javascript:/i.test(value)) {
        found.push(`${name}=${value}`.slice(0, 120));
      }
    }
  }
  if (/<script/i.test(html)) found.push("<script");
  return found;
}

const page = (body) => `<!DOCTYPE html><html><head></head><body>${body}</body></html>`;

for (const file of process.argv.slice(3)) {
  const src = fs.readFileSync(file, "utf8");
  const runs = {
    katex: () => katexPage(src),
    mathjax: () => mathjaxPage(page(new MarkdownIt({ html: true }).render(src))),
    "mathjax-spans": () => {
      const md = new MarkdownIt({ html: true });
      dollarMath(md, (tex, display) => escapeHtml(display ? `\\[${tex}\\]` : `\\(${tex}\\)`));
      return mathjaxPage(page(md.render(src)));
    },
  };
  for (const [renderer, run] of Object.entries(runs)) {
    mathCount = 0;
    const html = run();
    console.log(JSON.stringify({ file, renderer, math: mathCount, unsafe: unsafe(html) }));
  }
}
