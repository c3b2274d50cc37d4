// Amounts in cents as people say them, like the terminal client: "25¢", "$2.50", "$1,204.00".

export function perPoint(cents) {
  return cents < 100 ? `${cents}¢` : dollars(cents);
}

export function dollars(cents) {
  const sign = cents < 0 ? "-" : "";
  const magnitude = Math.abs(cents);
  const whole = Math.floor(magnitude / 100).toLocaleString("en-US");
  const fraction = String(magnitude % 100).padStart(2, "0");
  return `${sign}$${whole}.${fraction}`;
}
