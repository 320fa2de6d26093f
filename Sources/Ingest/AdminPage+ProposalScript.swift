extension AdminPage {
    /// A proposal's page (`GET /v1/admin/proposals/ID`): the current and proposed menus drawn as
    /// context menus, a reason in plain words for each moved item, the evidence in words with the
    /// model and citations behind "details", the ladder's steps to choose from (when the proposal
    /// has one), the decision with a confirmation (`POST` to the same path), and the charts
    /// (`GET /v1/admin/reports/ID`).
    static let proposalScript = #"""
        // ==== Proposal page ====
        let proposal = null;
        let chosenStep = null;

        const stepNames = {promote: "Promote", reorder: "Reorder", regroup: "Regroup"};
        const stepHelp = {
          promote: "the most used commands move to a short section at the top; everything else stays where it is",
          reorder: "also orders groups and items by use; rarely used commands go to the end",
          regroup: "arranges the whole menu into the allowed shape"
        };

        // The drawing of a layout (groups of command ids and {submenu, items}) as a context menu.
        function drawMenu(groups, info, marks) {
          const title = (id) => (info[id] && info[id].title) || id;
          const item = (id) => {
            const mark = marks[id];
            const row = h("div", {class: "item" + (info[id] && info[id].destructive ? " destructive" : "") + (mark ? " moved" : ""),
                                  "data-command": id}, h("span", {}, title(id)), mark ? h("span", {class: "mark"}, mark) : null);
            return row;
          };
          const menu = h("div", {class: "menu", role: "menu"});
          groups.forEach((group, index) => {
            if (index > 0) { menu.append(h("div", {class: "sep", role: "separator"})); }
            for (const entry of group) {
              if (typeof entry === "string") { menu.append(item(entry)); continue; }
              const sub = h("div", {class: "submenu"}, h("div", {class: "item"}, h("span", {}, entry.submenu)));
              const inner = h("div", {class: "sub"});
              const flat = (items) => items.flatMap((x) => typeof x === "string" ? [x] : flat(x.items));
              for (const id of flat(entry.items)) { inner.append(item(id)); }
              sub.append(inner);
              menu.append(sub);
            }
          });
          return menu;
        }

        // Commands of a layout in reading order.
        function reading(groups) {
          const out = [];
          const visit = (x) => { if (typeof x === "string") { out.push(x); } else { x.items.forEach(visit); } };
          groups.forEach((g) => g.forEach(visit));
          return out;
        }

        function listWords(names) {
          if (names.length <= 1) { return names.join(""); }
          return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
        }

        // A reason in plain words for one move, from the commands' reach and user-days.
        function reason(move, doc, info, groups, before, after) {
          const title = (id) => (info[id] && info[id].title) || id;
          const use = Object.fromEntries(doc.commands.concat(doc.prune).map((c) => [c.command, c]));
          const c = use[move.command] || {users: 0, user_days: 0, selections: 0};
          const people = doc.users > 0 ? percent(c.users / doc.users, 0) : "0%";
          const ud = (id) => (use[id] ? use[id].user_days : 0);
          const was = before.indexOf(move.command), now = after.indexOf(move.command);
          switch (move.change) {
            case "moved_up": {
              const passed = before.filter((id, i) => i < was && after.indexOf(id) > now);
              const more = passed.filter((id) => ud(move.command) > ud(id));
              const tail = passed.length === 0 ? "" : more.length === passed.length
                ? (passed.length > 3 ? ", more than any item it now comes before" : ", more than " + listWords(passed.map(title)) + ", which it now comes before")
                : ", about as much as " + listWords(passed.map(title)) + ", which it now comes before";
              return "moves up: used by " + people + " of people" + tail + ".";
            }
            case "moved_down": {
              const passed = before.filter((id, i) => i > was && after.indexOf(id) < now && after.indexOf(id) >= 0);
              return "moves down: used by " + people + " of people" +
                (passed.length ? ", less than " + listWords(passed.slice(0, 3).map(title)) + (passed.length > 3 ? " and others" : "") + ", which now come before it" : "") + ".";
            }
            case "regrouped": {
              const group = groups.find((g) => reading([g]).includes(move.command)) || [];
              const mates = reading([group]).filter((id) => id !== move.command).slice(0, 3).map(title);
              return "joins the group " + (mates.length ? "with " + listWords(mates) : "of its own") + ": used by " + people + " of people.";
            }
            case "moved_into_submenu": {
              const holder = groups.flat().find((x) => typeof x !== "string" && reading([[x]]).includes(move.command));
              return "goes into the submenu " + (holder ? "\u201C" + holder.submenu + "\u201D" : "") +
                ": used by only " + people + " of people, so it makes room for what is used more.";
            }
            case "moved_out_of_submenu":
              return "comes out of its submenu to the top level: used by " + people + " of people.";
            case "pruned":
              return "leaves the menu: used by only " + people + " of people (" + percent(c.share || 0, 1) +
                " of selections; at most " + percent(c.share_high || 0, 1) + " with 95% confidence).";
            case "added": return "is added to the menu.";
            default: return "stays.";
          }
        }

        const moveMarks = {moved_up: "\u2191 up", moved_down: "\u2193 down", regrouped: "\u21C4 new group",
                           moved_into_submenu: "\u2192 submenu", moved_out_of_submenu: "\u2190 out of submenu", added: "new"};

        // The shape findings a smaller step leaves, in words, with the code for the lint report.
        const findingWords = {"HIG-2": "more items at the top level than the allowed groups hold",
                              "HIG-4": "a submenu inside a submenu", "HIG-6": "more groups than allowed"};
        function plainFindings(text) {
          return text.replace(/HIG-\d+/g, (code) => findingWords[code] ? findingWords[code] + " (" + code + ")" : code);
        }

        function ladderView(p) {
          const ladder = p.ladder || p.proposal.ladder;
          if (!Array.isArray(ladder) || ladder.length === 0) { return null; }
          const filed = p.step || p.proposal.step || (ladder.find((s) => s.filed) || {}).step || null;
          if (!chosenStep) { chosenStep = filed; }
          const box = h("div", {class: "ladder", id: "ladder", role: "radiogroup"});
          for (const step of ladder) {
            const input = h("input", {type: "radio", name: "step", value: step.step, id: "step-" + step.step,
                                      disabled: !step.offered || p.status !== "pending", checked: step.step === chosenStep});
            input.addEventListener("change", () => { chosenStep = step.step; renderProposal(); });
            const facts = step.offered
              ? (step.moves + " move" + (step.moves === 1 ? "" : "s") +
                 (typeof step.scan_depth === "number" ? ", scan depth " + step.scan_depth.toFixed(2) : "") +
                 ", " + percent(step.gain_share || 0, 0) + " of the best gain" +
                 (typeof step.seconds === "number" ? ", " + step.seconds.toFixed(2) + " s per pick" : ""))
              : (step.why_not || "not offered");
            box.append(h("label", {class: "step" + (step.step === chosenStep ? " chosen" : "") + (step.offered ? "" : " unavailable"),
                                   for: "step-" + step.step, "data-step": step.step},
              input, h("span", {}, h("strong", {}, (stepNames[step.step] || step.step) + (step.filed ? " (proposed)" : "")),
                h("small", {}, facts),
                step.offered && !step.filed && step.why_not ? h("small", {class: "why-not"}, "Not proposed: " + plainFindings(step.why_not)) : null,
                h("small", {}, stepHelp[step.step] || ""))));
          }
          return [h("h3", {}, "How far to go"), h("p", {class: "note"}, "Each step contains the changes of the one before. The proposal is the smallest step that gives most of the gain; a larger one may be chosen instead."), box];
        }

        // The layout and moves of the chosen step (the filed one when there is no ladder).
        function chosenLayout(p) {
          const ladder = p.ladder || p.proposal.ladder;
          const step = Array.isArray(ladder) ? ladder.find((s) => s.step === chosenStep) : null;
          if (step && step.groups && !step.filed) {
            const moved = new Set(step.moved || []);
            return {groups: step.groups, moves: p.proposal.moves.filter((m) => moved.has(m.command))};
          }
          return {groups: p.proposal.proposed.groups, moves: p.proposal.moves};
        }

        function renderProposal() {
          const p = proposal, doc = p.proposal, info = p.command_info || {};
          const title = (id) => (info[id] && info[id].title) || id;
          const layout = chosenLayout(p);
          const before = reading(doc.current.groups), after = reading(layout.groups);
          const moves = layout.moves.filter((m) => m.change !== "unchanged");
          const marks = Object.fromEntries(moves.filter((m) => moveMarks[m.change]).map((m) => [m.command, moveMarks[m.change]]));
          const pruned = moves.filter((m) => m.change === "pruned" || m.change === "removed");
          const seconds = doc.evidence.seconds;
          const faster = seconds.current > 0 ? (seconds.current - seconds.proposed) / seconds.current : 0;
          const body = $("proposal-body");
          body.replaceChildren(...[
            h("p", {class: "lead", id: "summary"}, moves.length === 0 ? "This proposal changes nothing." :
              moves.length + " item" + (moves.length === 1 ? "" : "s") + " change. People would reach the command they want after scanning " +
              doc.scan_depth.proposed.toFixed(1) + " items on average instead of " + doc.scan_depth.current.toFixed(1) +
              (faster > 0 ? ", about " + percent(faster, 0) + " faster per pick." : ".")),
            ladderView(p),
            h("div", {class: "menus"},
              h("div", {class: "menu-col"}, h("h4", {}, "Now"), drawMenu(doc.current.groups, info, {})),
              h("div", {class: "menu-col", id: "proposed-menu"}, h("h4", {}, "Proposed"), drawMenu(layout.groups, info, marks),
                pruned.length ? h("div", {class: "pruned"}, "Leaves the menu: ", ...pruned.map((m, i) => [i ? ", " : "", h("s", {}, title(m.command))])) : null)),
            moves.length ? h("h3", {}, "Why each item moves") : null,
            moves.length ? h("ul", {class: "reasons", id: "reasons"}, ...moves.map((m) =>
              h("li", {"data-command": m.command}, h("strong", {}, title(m.command)), " ", reason(m, doc, info, layout.groups, before, after)))) : null,
            h("h3", {}, "Evidence"),
            h("p", {id: "evidence"}, "Based on " + count(doc.selections) + " selections by " + count(doc.users) + " people from " +
              p.window.from + " to " + p.window.to + ". " +
              (doc.evidence.stability === null ? "" : "When the people are resampled, " + percent(doc.evidence.stability, 0) +
                " of the samples put the same commands at the top" + (doc.evidence.tentative ? " (tentative: below the bar for filing)" : "") + ". ") +
              (doc.evidence.displaced_share > 0 ? "Commands leaving the menu had " + percent(doc.evidence.displaced_share, 1) + " of the selections." : "")),
            h("details", {id: "evidence-details"}, h("summary", {}, "Details: the model and the figures"),
              h("dl", {},
                h("dt", {}, "scan depth"), h("dd", {}, doc.scan_depth.current.toFixed(2) + " \u2192 " + doc.scan_depth.proposed.toFixed(2) +
                  " items (a pruned command costs " + doc.evidence.fallback_cost + ")"),
                h("dt", {}, "model time per pick"), h("dd", {}, seconds.current.toFixed(3) + " s \u2192 " + seconds.proposed.toFixed(3) + " s"),
                h("dt", {}, "model"), h("dd", {}, doc.evidence.model.source),
                h("dt", {}, "parameters"), h("dd", {}, Object.entries(doc.evidence.model).filter(([k]) => k !== "source")
                  .map(([k, v]) => k.replace(/_/g, " ") + " " + v).join(", ")),
                h("dt", {}, "stability"), h("dd", {}, doc.evidence.stability === null ? "not computed" : percent(doc.evidence.stability, 1)),
                ...(doc.lint.length ? [h("dt", {}, "findings"), h("dd", {}, doc.lint.map((f) => f.rule + ": " + f.message).join(" "))] : [])))
          ].flat().filter((x) => x));
        }

        routes.proposal = async (parts) => {
          const id = parts[0];
          const p = await api("/v1/admin/proposals/" + encodeURIComponent(id));
          if (!proposal || proposal.id !== p.id) { chosenStep = null; }
          proposal = p;
          $("detail-title").textContent = "Proposal #" + p.id + ": " + p.app + " " + p.element_type;
          const facts = $("facts");
          facts.replaceChildren();
          const rows = [["status", p.status], ["created", p.created], ["window", p.window.from + " to " + p.window.to],
                        ["figures", "computed " + readAt(p.created) + " when it was filed, from the rollups of the window; " +
                          "events after " + p.window.to + " are not in them (the element type's page has today's)"],
                        ["rollups now", freshnessText(p.freshness).text],
                        ["base layout version", String(p.base_layout_version)]];
          if (p.decided) { rows.push(["decided", p.decided]); }
          if (p.decided_by) { rows.push(["decided by", p.decided_by]); }
          if (p.note) { rows.push(["note", p.note]); }
          for (const [name, value] of rows) {
            facts.append(h("dt", {}, name), h("dd", {id: "fact-" + name.replace(/ /g, "-")}, value));
          }
          renderProposal();
          $("diff").textContent = p.diff;
          $("served-box").hidden = !p.served_after_accept;
          $("served").textContent = p.served_after_accept ? JSON.stringify(p.served_after_accept, null, 2) : "";
          $("decide").hidden = p.status !== "pending";
          $("decide").dataset.id = String(p.id);
          $("decide-error").textContent = "";
          $("note").value = "";
          $("keep-pruned").value = "";
          $("as-rollout").checked = false;
          const usageLink = "#/usage/" + encodeURIComponent(p.element_type) + "?app=" + encodeURIComponent(p.app);
          $("element-link").setAttribute("href", usageLink);
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
          const ladder = proposal.ladder || proposal.proposal.ladder;
          const body = {decision: decision, note: $("note").value,
                        keep_pruned: decision === "accept" ? $("keep-pruned").value.trim() : ""};
          if (decision === "accept") {
            const step = chosenStep ? (stepNames[chosenStep] || chosenStep).toLowerCase() + " step" : "proposed layout";
            const filed = proposal.step || proposal.proposal.step || null;
            if ($("as-rollout").checked) {
              // A rollout serves the filed step (its layout is the proposal's).
              if (chosenStep && filed && chosenStep !== filed) {
                $("decide-error").textContent = "A rollout serves the proposed step (" + (stepNames[filed] || filed) + "); choose it, or accept without a rollout.";
                return;
              }
              const share = Number($("rollout-share").value);
              if (!(share >= 1 && share <= 99)) { $("decide-error").textContent = "The share of people is a percentage from 1 to 99."; return; }
              body.rollout = share + "%";
              const ok = await confirmDialog("Roll out proposal #" + id + " for " + proposal.element_type + " to " + share +
                "% of people? The rest keep the current layout; the element type's page compares the two and can widen, promote or stop it.", "Roll out");
              if (!ok) { return; }
            } else {
              if (Array.isArray(ladder) && chosenStep) { body.step = chosenStep; }
              const ok = await confirmDialog("Accept proposal #" + id + " for " + proposal.element_type + " with its " + step +
                "? GET /v1/menus serves the new layout at once; it can be rolled back from the element type's page.", "Accept");
              if (!ok) { return; }
            }
          }
          try {
            document.body.dataset.lastDecision = JSON.stringify(body);
            await api("/v1/admin/proposals/" + id, {method: "POST", headers: {"Content-Type": "application/json"},
                      body: JSON.stringify(body)});
            await routes.proposal([id]);
          } catch (error) {
            $("decide-error").textContent = error.message;
          }
        }

        $("accept").addEventListener("click", () => decide("accept"));
        $("reject").addEventListener("click", () => decide("reject"));
        """#
}
