// Whether this checkbox or radio is checked (read back after a click on its label).
function () { return this.checked; }
