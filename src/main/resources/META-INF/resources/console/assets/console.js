// The Engram console's one script. Every page works without it; it adds what a page without script cannot do:
// following a store's journal live (an element with data-live-journal names the stream to follow).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("[data-live-journal]").forEach((list) => {
    const source = new EventSource(list.getAttribute("data-live-journal"));
    const status = document.getElementById(list.getAttribute("data-live-status") || "");
    source.addEventListener("open", () => { if (status) status.textContent = "Following the journal live."; });
    source.addEventListener("record", (event) => {
      const holder = document.createElement("tbody");
      holder.innerHTML = event.data; // a row the server rendered and escaped, like every row of the page
      const row = holder.firstElementChild;
      if (row) {
        list.insertBefore(row, list.firstElementChild);
        if (status) status.textContent = "New record " + (row.getAttribute("data-seq") || "") + " arrived.";
      }
    });
    source.addEventListener("error", () => { if (status) status.textContent = "Live updates paused; retrying."; });
  });
});
