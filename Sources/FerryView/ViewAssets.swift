/// The view's style sheet and its one script, files of the bundle like its pages.
enum ViewAssets {
    static let styleSheet = """
        :root { color-scheme: light dark; --muted: #5b6470; --line: #c9ced6; --mark: #7a4d00; }
        @media (prefers-color-scheme: dark) { :root { --muted: #a7b0bb; --line: #4a515b; --mark: #f0c070; } }
        body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 0 1rem 2rem; }
        .skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; }
        header nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 1rem; padding: .75rem 0; margin: 0; border-bottom: 1px solid var(--line); }
        a:focus-visible, input:focus-visible { outline: 3px solid #2a6fdb; outline-offset: 2px; }
        [aria-current] { font-weight: bold; }
        table { border-collapse: collapse; margin: .5rem 0 1rem; }
        th, td { border: 1px solid var(--line); padding: .2rem .5rem; text-align: left; vertical-align: top; }
        table.logs > tbody > tr > td:first-child { white-space: nowrap; }
        td { overflow-wrap: break-word; }
        table.logs { width: 100%; table-layout: fixed; } table.logs td { overflow-wrap: anywhere; } table.logs th { overflow-wrap: break-word; }
        table.logs > thead th:nth-child(1) { width: 10.5rem; } table.logs > thead th:nth-child(2) { width: 13%; }
        table.logs > thead th:nth-child(3) { width: 6%; } table.logs > thead th:nth-child(4) { width: 4rem; }
        table.logs > thead th:nth-child(5) { width: 7%; } table.logs > thead th:nth-child(6) { width: 22%; }
        table.logs > thead th:nth-child(7) { width: 10%; } ul.materials { padding-left: 1.2rem; margin: .3rem 0; }
        .record { border-top: 2px solid var(--line); margin-top: 1.5rem; }
        .kind, .note, .source, .path { color: var(--muted); font-size: .9em; }
        .tag { border: 1px solid var(--line); border-radius: .6rem; padding: 0 .4rem; }
        .prose, pre { white-space: pre-wrap; overflow-wrap: anywhere; }
        .reconstructed { color: var(--mark); }
        figure { margin: .5rem 0; } img { max-width: 100%; height: auto; max-height: 24rem; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; } dd { margin: 0; }
        footer { color: var(--muted); font-size: .85em; border-top: 1px solid var(--line); margin-top: 2rem; }

        """

    /// Reveals the filter box and hides the records of the page that do not contain its text.
    static let script = """
        "use strict";
        document.addEventListener("DOMContentLoaded", () => {
          const input = document.querySelector("input[data-filter]");
          if (!input) return;
          input.closest(".filter").hidden = false;
          const records = Array.from(document.querySelectorAll("main tbody tr, main section.record"));
          input.addEventListener("input", () => {
            const wanted = input.value.trim().toLowerCase();
            for (const record of records) record.hidden = wanted !== "" && !record.textContent.toLowerCase().includes(wanted);
          });
        });

        """
}
