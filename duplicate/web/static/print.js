/* The desk's table cards: the "print" button (no inline handler: the pages' Content-Security-Policy allows none). */
document.querySelectorAll('[data-print]').forEach(function (button) {
  button.addEventListener('click', function () { window.print(); });
});
