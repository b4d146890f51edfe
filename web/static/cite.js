// "Copy citation" buttons, for the app's pages (before app.js) and the export's (before
// offline.js): a click copies the ruling's text, its source and date, and its permalink, and the
// status line says so. The buttons are hidden until this file shows them; every page still reads
// without it. window.RulingsCite: announce (say a line in the status region) and show (show the
// buttons under an element put in the page later).
(function () {
  "use strict";
  var status = document.getElementById("status");
  function announce(text) {
    if (!status) { return; }
    // A change of text is what screen readers announce: clear first so a repeat is heard too.
    status.textContent = "";
    setTimeout(function () { status.textContent = text; }, 50);
  }

  function absolute(path) { return new URL(path, window.location.href).href; }
  function copyByCommand(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (ignored) { done = false; }
    area.remove();
    return done;
  }
  function copyCitation(button) {
    var text = button.dataset.citation + "\n" + absolute(button.dataset.permalink);
    function copied() { button.textContent = "Copied"; announce("Citation copied"); setTimeout(function () { button.textContent = "Copy citation"; }, 2000); }
    function failed() { announce("Could not copy; the citation is beside the button"); }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(copied, function () { if (copyByCommand(text)) { copied(); } else { failed(); } });
    } else if (copyByCommand(text)) {
      copied();
    } else {
      failed();
    }
  }
  function showCopyButtons(root) {
    root.querySelectorAll("button.copy-cite").forEach(function (button) { button.hidden = false; });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.copy-cite");
    if (button) { copyCitation(button); }
  });
  showCopyButtons(document);

  window.RulingsCite = { announce: announce, show: showCopyButtons };
})();
