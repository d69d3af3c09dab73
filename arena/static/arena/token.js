/* The API token page: show / hide the token and copy it. */
(function () {
  "use strict";
  var input = document.querySelector("[data-token]");
  if (!input) {
    return;
  }
  var toggle = document.querySelector("[data-token-toggle]");
  var copy = document.querySelector("[data-token-copy]");
  toggle.addEventListener("click", function () {
    var hidden = input.type === "password";
    input.type = hidden ? "text" : "password";
    toggle.textContent = hidden ? "Hide" : "Show";
    toggle.setAttribute("aria-pressed", hidden ? "true" : "false");
  });
  copy.addEventListener("click", function () {
    var done = function () {
      copy.textContent = "Copied";
      window.setTimeout(function () {
        copy.textContent = "Copy";
      }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () {
        copy.textContent = "Copy failed";
      });
    } else {
      var type = input.type;
      input.type = "text";
      input.select();
      document.execCommand("copy");
      input.type = type;
      done();
    }
  });
})();
