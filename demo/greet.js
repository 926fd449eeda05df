function greeting(email) {
  const name = email.split("@")[0];
  const message = "Hello, " + name + "!";
  return message;
}

document.getElementById("greet").addEventListener("click", () => {
  const email = new URLSearchParams(location.search).get("email") || "guest";
  document.getElementById("greeting").textContent = greeting(email);
  console.log("greeted", email);
});
