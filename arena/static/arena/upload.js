/*
 * Upload pages: drag and drop onto the file field, and the validation progress of a
 * version (poll its status until valid or invalid, then reload to show the verdict; the
 * owner-only logs are rendered by the server, never fetched by script).
 */
(function () {
  "use strict";

  document.querySelectorAll("[data-dropzone]").forEach(function (zone) {
    var input = zone.querySelector("input[type=file]");
    var target = zone.querySelector("[data-drop-target]");
    var chosen = zone.querySelector("[data-chosen]");
    if (!input || !target) {
      return;
    }
    function show() {
      var file = input.files && input.files[0];
      chosen.textContent = file ? "Selected: " + file.name + " (" + file.size.toLocaleString() + " bytes)" : "";
    }
    input.addEventListener("change", show);
    ["dragenter", "dragover"].forEach(function (type) {
      target.addEventListener(type, function (event) {
        event.preventDefault();
        target.classList.add("dragging");
      });
    });
    ["dragleave", "dragend"].forEach(function (type) {
      target.addEventListener(type, function () {
        target.classList.remove("dragging");
      });
    });
    target.addEventListener("drop", function (event) {
      event.preventDefault();
      target.classList.remove("dragging");
      var files = event.dataTransfer && event.dataTransfer.files;
      if (files && files.length) {
        input.files = files;
        show();
      }
    });
  });

  var box = document.getElementById("validation");
  if (!box || box.dataset.status !== "pending") {
    return;
  }
  var url = box.dataset.statusUrl;
  var label = document.getElementById("version-status");
  var started = Date.now();
  var delay = 1000;

  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (data && data.done) {
          label.textContent = data.status === "valid" ? "Valid" : "Invalid";
          label.dataset.status = data.status;
          window.location.reload();
          return;
        }
        var seconds = Math.round((Date.now() - started) / 1000);
        label.textContent = "Validating\u2026 (" + seconds + " s)";
        delay = Math.min(delay * 1.3, 5000);
        window.setTimeout(poll, delay);
      })
      .catch(function () {
        // A dropped connection: try again later rather than give up.
        window.setTimeout(poll, 5000);
      });
  }

  window.setTimeout(poll, delay);
})();
