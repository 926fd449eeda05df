// What an upload needs to know of the element: whether it is a file input, takes several
// files, is disabled; and (after the upload) the names it holds.
function () {
  const isFileInput = this instanceof HTMLInputElement && this.type === "file";
  return {
    fileInput: isFileInput,
    multiple: isFileInput && this.multiple,
    disabled: isFileInput && this.disabled,
    names: isFileInput ? Array.from(this.files || [], (file) => file.name) : [],
  };
}
