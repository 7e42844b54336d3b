// The games list: show only the games of one bot, or with one kind of fault.
"use strict";

(function () {
  const bot = document.getElementById("filter-bot");
  const fault = document.getElementById("filter-fault");
  const shown = document.getElementById("shown");
  const rows = Array.from(document.querySelectorAll("#games tbody tr"));

  function wanted() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (params.has("bot")) bot.value = params.get("bot");
    if (params.has("fault")) fault.value = params.get("fault");
  }

  function filter() {
    let count = 0;
    for (const row of rows) {
      const bots = JSON.parse(row.dataset.bots);
      const faults = row.dataset.faults ? row.dataset.faults.split(" ") : [];
      const ok = (!bot.value || bots.includes(bot.value)) &&
        (!fault.value || (fault.value === "*" ? faults.length > 0 : faults.includes(fault.value)));
      row.hidden = !ok;
      if (ok) count++;
    }
    shown.textContent = count + " of " + rows.length + " games";
  }

  wanted();
  bot.addEventListener("change", filter);
  fault.addEventListener("change", filter);
  filter();
})();
