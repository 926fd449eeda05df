// Runs `expression` as global code of this document's window (an indirect eval), as Runtime.evaluate runs it in a page.
function (expression) { return (0, this.defaultView.eval)(expression); }
