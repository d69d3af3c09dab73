/*
 * The playground's code editor: CodeMirror 6 set up for a bot's Python source.
 *
 * Bundled by `make assets` (esbuild, pinned in package.json and package-lock.json) into
 * arena/static/arena/editor/editor.bundle.js, which is committed: `make run` needs no node.
 * Never edit the bundle by hand; tests/foundation/test_assets.py rebuilds it and compares.
 *
 * createEditor(parent, {doc, onChange, label}) returns {view, getSource, setSource,
 * showError, clearError, focusLine}. showError(line, message) marks the line the upload check
 * refused (a syntax error, a forbidden import) in the gutter and underlines it.
 */

import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
} from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import {
  bracketMatching,
  defaultHighlightStyle,
  foldGutter,
  foldKeymap,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { EditorSelection, EditorState } from "@codemirror/state";
import {
  EditorView,
  crosshairCursor,
  drawSelection,
  dropCursor,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
} from "@codemirror/view";

const theme = EditorView.theme({
  "&": { fontSize: "14px", height: "100%" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: "1.5" },
  ".cm-content": { padding: "8px 0" },
  ".cm-gutters": { backgroundColor: "#f6f7f9", borderRight: "1px solid #dde1e6", color: "#6b7280" },
  ".cm-activeLineGutter": { backgroundColor: "#e8edf5" },
  ".cm-activeLine": { backgroundColor: "#f3f6fb" },
  "&.cm-focused": { outline: "2px solid #2f5fd0", outlineOffset: "-2px" },
});

export function createEditor(parent, { doc = "", onChange = null, label = "Bot source" } = {}) {
  const listener = EditorView.updateListener.of((update) => {
    if (update.docChanged && onChange) onChange(update.state.doc.toString());
  });
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        foldGutter(),
        lintGutter(),
        drawSelection(),
        dropCursor(),
        EditorState.allowMultipleSelections.of(true),
        EditorState.tabSize.of(4),
        indentUnit.of("    "),
        indentOnInput(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        bracketMatching(),
        closeBrackets(),
        autocompletion(),
        rectangularSelection(),
        crosshairCursor(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        keymap.of([
          ...closeBracketsKeymap,
          ...defaultKeymap,
          ...searchKeymap,
          ...historyKeymap,
          ...foldKeymap,
          ...completionKeymap,
          ...lintKeymap,
          indentWithTab,
        ]),
        python(),
        theme,
        EditorView.contentAttributes.of({ "aria-label": label }),
        listener,
      ],
    }),
  });

  function lineRange(number) {
    const doc = view.state.doc;
    const line = doc.line(Math.max(1, Math.min(doc.lines, number)));
    return line;
  }

  return {
    view,
    getSource: () => view.state.doc.toString(),
    setSource(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    showError(number, message) {
      const line = lineRange(number);
      view.dispatch(
        setDiagnostics(view.state, [
          { from: line.from, to: Math.max(line.from, line.to), severity: "error", message },
        ]),
      );
      view.dispatch({ selection: EditorSelection.cursor(line.from), scrollIntoView: true });
    },
    clearError() {
      view.dispatch(setDiagnostics(view.state, []));
    },
    focusLine(number) {
      const line = lineRange(number);
      view.dispatch({ selection: EditorSelection.cursor(line.from), scrollIntoView: true });
      view.focus();
    },
  };
}
