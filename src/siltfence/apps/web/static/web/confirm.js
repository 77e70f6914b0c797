// A second look before a decision that cannot be undone. The page works without this:
// the form's required "I understand" box is also checked on the server.
document.addEventListener("submit", function (event) {
  var form = event.target;
  var question = form.getAttribute && form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
});
