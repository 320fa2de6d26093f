extension AdminPage {
    /// A proposal's page (`GET /v1/admin/proposals/ID`), its decision (`POST` to the same path)
    /// and its charts (`GET /v1/admin/reports/ID`).
    static let proposalScript = #"""
        // ==== Proposal page ====
        let proposal = null;

        routes.proposal = async (parts) => {
          const id = parts[0];
          const p = await api("/v1/admin/proposals/" + encodeURIComponent(id));
          proposal = p;
          $("detail-title").textContent = "Proposal #" + p.id + ": " + p.app + " " + p.element_type;
          const facts = $("facts");
          facts.replaceChildren();
          const rows = [["status", p.status], ["created", p.created], ["window", p.window.from + " to " + p.window.to],
                        ["base layout version", String(p.base_layout_version)]];
          if (p.decided) { rows.push(["decided", p.decided]); }
          if (p.decided_by) { rows.push(["decided by", p.decided_by]); }
          if (p.note) { rows.push(["note", p.note]); }
          for (const [name, value] of rows) {
            facts.append(h("dt", {}, name), h("dd", {id: "fact-" + name.replace(/ /g, "-")}, value));
          }
          $("diff").textContent = p.diff;
          $("served-box").hidden = !p.served_after_accept;
          $("served").textContent = p.served_after_accept ? JSON.stringify(p.served_after_accept, null, 2) : "";
          $("decide").hidden = p.status !== "pending";
          $("decide").dataset.id = String(p.id);
          $("decide-error").textContent = "";
          $("note").value = "";
          $("keep-pruned").value = "";
          show("detail");
          // The report's page, parsed inert (no script runs: DOMParser, and this page's policy) and
          // shown in a shadow root so that its styles stay its own.
          const response = await fetch("/v1/admin/reports/" + encodeURIComponent(id), {headers: {"Authorization": "Bearer " + token}});
          const root = $("charts").shadowRoot || $("charts").attachShadow({mode: "open"});
          root.replaceChildren();
          if (response.ok) {
            const report = new DOMParser().parseFromString(await response.text(), "text/html");
            root.append(...report.head.querySelectorAll("style"), ...report.body.childNodes);
          }
        };

        async function decide(decision) {
          const id = $("decide").dataset.id;
          if (decision === "accept") {
            const ok = await confirmDialog("Accept proposal #" + id + " for " + proposal.element_type +
              "? GET /v1/menus serves the new layout at once.", "Accept");
            if (!ok) { return; }
          }
          try {
            await api("/v1/admin/proposals/" + id, {method: "POST", headers: {"Content-Type": "application/json"},
                      body: JSON.stringify({decision: decision, note: $("note").value,
                                            keep_pruned: decision === "accept" ? $("keep-pruned").value.trim() : ""})});
            await routes.proposal([id]);
          } catch (error) {
            $("decide-error").textContent = error.message;
          }
        }

        $("accept").addEventListener("click", () => decide("accept"));
        $("reject").addEventListener("click", () => decide("reject"));
        """#
}
