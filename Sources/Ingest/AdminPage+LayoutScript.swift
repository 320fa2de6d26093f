extension AdminPage {
    /// On an element type's page: the layout served now drawn as a menu, its versions, its
    /// rollbacks, and the Roll back button (`GET /v1/admin/layouts`, `POST /v1/admin/layouts/rollback`).
    static let layoutScript = #"""
        // ==== Layouts and rollback (element type page) ====
        async function layoutsSection(appName, elementType, container) {
          const query = "?app=" + encodeURIComponent(appName) + "&element_type=" + encodeURIComponent(elementType);
          const data = await api("/v1/admin/layouts" + query);
          const section = h("div", {id: "layouts"});
          container.append(section);
          if (data.layouts.length === 0) {
            section.append(h("h3", {}, "Served menu"), h("p", {class: "note"}, "No layout: the manifest does not declare this element type."));
            return;
          }
          const current = data.layouts[data.layouts.length - 1];
          const origin = (l) => l.source === "proposal" ? "accepted proposal #" + l.proposal_id
            : l.source === "rollback" ? "rollback of proposal #" + l.proposal_id : "manifest";
          section.append(h("h3", {}, "Served menu"),
            h("p", {class: "note", id: "layout-current"}, "Version " + current.version + " (" + origin(current) + ", menu_version " +
              current.menu_version + ", since " + current.created + ")."),
            h("div", {class: "menus"}, h("div", {class: "menu-col"}, drawMenu(current.groups, data.command_info, {}))));
          if (data.can_roll_back) {
            const note = h("textarea", {id: "rollback-note", rows: 2, maxlength: 2000, placeholder: "Why (kept with the rollback)"});
            const button = h("button", {id: "rollback", class: "reject"}, "Roll back\u2026");
            const error = h("span", {id: "rollback-error", class: "error", role: "alert"});
            const previous = data.layouts[data.layouts.length - 2];
            button.addEventListener("click", async () => {
              if (!note.value.trim()) { error.textContent = "Say why first."; return; }
              const ok = await confirmDialog("Roll back " + elementType + "? The layout of version " + previous.version +
                " (from before proposal #" + current.proposal_id + ") is served again as a new version.", "Roll back");
              if (!ok) { return; }
              try {
                await api("/v1/admin/layouts/rollback", {method: "POST", headers: {"Content-Type": "application/json"},
                          body: JSON.stringify({app: appName, element_type: elementType, note: note.value})});
                route();
              } catch (e) { error.textContent = e.message; }
            });
            section.append(h("div", {id: "rollback-box"}, h("h4", {}, "Undo the last accept"),
              h("p", {class: "note"}, "Serves version " + previous.version + " again, as it was before proposal #" + current.proposal_id + " was accepted."),
              note, h("br"), button, " ", error));
          }
          section.append(h("details", {id: "layout-history"}, h("summary", {}, "All versions (" + data.layouts.length + ")"),
            h("div", {class: "scroll"}, h("table", {},
              h("thead", {}, h("tr", {}, h("th", {}, "version"), h("th", {}, "from"), h("th", {}, "menu_version"), h("th", {}, "since"))),
              h("tbody", {}, ...data.layouts.slice().reverse().map((l) => h("tr", {}, h("td", {}, String(l.version)),
                h("td", {}, origin(l)), h("td", {}, l.menu_version), h("td", {}, l.created))))))));
          if (data.rollbacks.length) {
            section.append(h("ul", {id: "rollbacks"}, ...data.rollbacks.map((r) => h("li", {}, r.created + ": " + r.decided_by +
              " rolled back proposal #" + r.proposal_id + " (version " + r.replaced_version + " \u2192 " + r.layout_version + "): " + r.note))));
          }
        }
        elementExtras.push(layoutsSection);
        """#
}
