// Bundles the site's scripts (`make assets`): node build.mjs [outfile]. The default outfile
// is the committed bundle; tests/foundation/test_assets.py builds to another file and
// compares, so the committed bundle is always exactly what these sources and pins give.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const outfile = process.argv[2] || `${here}../arena/static/arena/editor/editor.bundle.js`;

await build({
  entryPoints: [`${here}editor.js`],
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2020",
  legalComments: "eof",
  charset: "utf8",
  outfile,
  banner: {
    js: "/* The playground's editor: CodeMirror 6 and Lezer (MIT licence, Marijn Haverbeke and " +
      "others), bundled by assets/build.mjs from assets/package-lock.json. Generated: do not " +
      "edit; run `make assets`. */",
  },
  logLevel: "warning",
});
