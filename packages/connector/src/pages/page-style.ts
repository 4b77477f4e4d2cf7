/**
 * The style of the connector's pages (page.ts): a calm, single column that fits a 360 px phone,
 * the system's light or dark scheme, each decision a card whose first button is its primary
 * action (filled) and the others quiet, a deletion in the colour of danger, keyboard focus always
 * visible. Contrast meets WCAG AA in both schemes. Plain text, not a tagged template: no
 * formatter rewrites it, and it says no word of the pages' own.
 */
export const PAGE_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #f3f4f6; --card: #ffffff; --text: #15181c; --muted: #4d5560;
  --line: #d6dae0; --line-strong: #8a939e;
  --accent: #1b57b8; --on-accent: #ffffff; --accent-soft: #eaf1fc;
  --danger: #b32116; --on-danger: #ffffff; --danger-soft: #fdeceb; --danger-text: #8a1a11;
  --ok: #17663a; --ok-soft: #e8f5ed; --focus: #0a3a8c;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0e1115; --card: #171b21; --text: #e7eaee; --muted: #a9b2bd;
    --line: #2c333c; --line-strong: #6d7784;
    --accent: #86b6ff; --on-accent: #0a1628; --accent-soft: #172539;
    --danger: #c8291d; --on-danger: #ffffff; --danger-soft: #36191a; --danger-text: #ffb3ab;
    --ok: #86d99b; --ok-soft: #14281b; --focus: #ffd166;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  overflow-wrap: anywhere;
}
.brand { background: var(--card); border-bottom: 1px solid var(--line); }
.brand p { max-width: 42rem; margin: 0 auto; padding: 0.75rem 1rem; font-size: 0.9rem; color: var(--muted); }
.brand strong { color: var(--text); margin-right: 0.5rem; }
main { max-width: 42rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
h1 { font-size: 1.55rem; line-height: 1.25; margin: 0.25rem 0 0.75rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 0.5rem; }
h3 { font-size: 1.05rem; line-height: 1.35; margin: 0 0 0.35rem; }
a { color: var(--accent); }
code { font-size: 0.9em; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 0.75rem; padding: 1rem 1.1rem; margin: 1rem 0; }
.card.destructive { border-top: 4px solid var(--danger); }
.lead { font-size: 1.05rem; }
.meta, .note, footer { color: var(--muted); font-size: 0.9rem; }
.tag {
  display: inline-block; font-size: 0.8rem; font-weight: 600; letter-spacing: 0.02em;
  padding: 0.05rem 0.5rem; border-radius: 1rem; background: var(--accent-soft); color: var(--text);
}
.destructive .tag { background: var(--danger-soft); color: var(--danger-text); }
.warning, .status, .alert { border-radius: 0.5rem; padding: 0.6rem 0.85rem; margin: 0.75rem 0; }
.warning, .alert { background: var(--danger-soft); color: var(--danger-text); }
.status { background: var(--ok-soft); color: var(--text); border-left: 4px solid var(--ok); }
dl.summary { margin: 0.75rem 0; border-top: 1px solid var(--line); }
dl.summary > div {
  display: grid; grid-template-columns: minmax(6.5rem, 32%) 1fr; gap: 0.1rem 1rem;
  padding: 0.5rem 0; border-bottom: 1px solid var(--line);
}
dl.summary dt { color: var(--muted); }
dl.summary dd { margin: 0; }
.was { display: block; color: var(--muted); font-size: 0.9rem; }
details summary { cursor: pointer; color: var(--accent); padding: 0.25rem 0; }
form { margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: 0.6rem; margin: 1rem 0 0.25rem; }
button {
  font: inherit; font-weight: 600; min-height: 2.75rem; padding: 0.5rem 1.15rem;
  border-radius: 0.5rem; border: 1px solid var(--line-strong);
  background: var(--card); color: var(--text); cursor: pointer;
}
.actions button:first-child { background: var(--accent); border-color: var(--accent); color: var(--on-accent); }
.destructive .actions button:first-child {
  background: var(--danger); border-color: var(--danger); color: var(--on-danger);
}
.danger .actions button:first-child { background: var(--card); border-color: var(--danger); color: var(--danger-text); }
.card h2 { margin-top: 0; }
button:hover { filter: brightness(0.93); }
a:focus-visible, button:focus-visible, summary:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
ul.plain { list-style: none; padding: 0; margin: 0; }
fieldset { border: 0; padding: 0; margin: 1rem 0 0; min-width: 0; }
legend { font-weight: 600; padding: 0; margin: 0 0 0.35rem; }
.hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
.option {
  display: flex; gap: 0.75rem; align-items: flex-start; min-height: 2.75rem;
  padding: 0.6rem 0.25rem; border-top: 1px solid var(--line); cursor: pointer;
}
legend + .option, .choices > .option:first-of-type { border-top: 0; }
.option input { flex: none; width: 1.25rem; height: 1.25rem; margin: 0.15rem 0 0; accent-color: var(--accent); }
.option small { display: block; color: var(--muted); font-size: 0.85rem; }
.choices { border: 1px solid var(--line); border-radius: 0.5rem; padding: 0 0.75rem; margin: 0; }
details.group { margin: 0.6rem 0; }
details.group > summary { font-weight: 600; color: var(--text); min-height: 2.75rem; padding: 0.55rem 0; }
details.group > summary small { color: var(--muted); font-weight: 400; font-size: 0.9rem; }
.find { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0.75rem 0; }
.find label { flex-basis: 100%; font-weight: 600; }
.find input {
  flex: 1 1 10rem; min-width: 0; min-height: 2.75rem; padding: 0.4rem 0.7rem; font: inherit;
  color: var(--text); background: var(--card); border: 1px solid var(--line-strong); border-radius: 0.5rem;
}
input:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
nav { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; margin-top: 2rem; }
@media (max-width: 30rem) {
  h1 { font-size: 1.35rem; }
  dl.summary > div { grid-template-columns: 1fr; }
  .actions button { flex: 1 1 8rem; }
}
`
