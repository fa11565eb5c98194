package tools

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fakeOpenMeteo answers like Open-Meteo's geocoding and forecast APIs;
// the tests never reach the network.
func fakeOpenMeteo(t *testing.T, geo, forecast string, status int) OpenMeteo {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		switch r.URL.Path {
		case "/geo":
			if r.URL.Query().Get("name") == "" {
				t.Errorf("geocoding without a name: %s", r.URL)
			}
			w.Write([]byte(geo))
		case "/forecast":
			if r.URL.Query().Get("latitude") != "37.566" {
				t.Errorf("forecast for the wrong place: %s", r.URL)
			}
			w.Write([]byte(forecast))
		}
	}))
	t.Cleanup(srv.Close)
	return OpenMeteo{Client: srv.Client(), GeocodingURL: srv.URL + "/geo", ForecastURL: srv.URL + "/forecast"}
}

const (
	seoulGeo      = `{"results":[{"name":"Seoul","country":"South Korea","admin1":"Seoul","latitude":37.566,"longitude":126.9784}]}`
	seoulForecast = `{"current":{"time":"2026-11-23T21:00","temperature_2m":3.4,"weather_code":61,"wind_speed_10m":12.2},
"daily":{"time":["2026-11-23","2026-11-24"],"weather_code":[61,0],"temperature_2m_max":[7.1,9],"temperature_2m_min":[1.2,-0.4],"precipitation_sum":[2.5,0]}}`
)

func TestGetWeather(t *testing.T) {
	cases := []struct {
		name, place, geo, forecast string
		status                     int
		want, wantErr              string
	}{
		{name: "seoul", place: "서울", geo: seoulGeo, forecast: seoulForecast, status: 200,
			want: "Weather in Seoul, Seoul, South Korea (Open-Meteo, 2026-11-23T21:00 local time): rain, 3.4 °C, wind 12 km/h.\n2026-11-23: rain, 1–7 °C, 2.5 mm\n2026-11-24: clear sky, 0–9 °C\n"},
		{name: "unknown place", place: "Nowhereville", geo: `{}`, status: 200, wantErr: "no place called"},
		{name: "empty place", place: "  ", wantErr: "name a place"},
		{name: "server error", place: "Seoul", geo: `{"error":true,"reason":"quota"}`, status: 429, wantErr: "answered 429 quota"},
		{name: "not json", place: "Seoul", geo: `<html>`, status: 200, wantErr: "not what was expected"},
		{name: "no current weather", place: "Seoul", geo: seoulGeo, forecast: `{"daily":{}}`, status: 200, wantErr: "no current weather"},
		{name: "too large", place: "Seoul", geo: `{"results":[], "x":"` + strings.Repeat("a", maxWeatherBody) + `"}`, status: 200, wantErr: "too large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := fakeOpenMeteo(t, c.geo, c.forecast, c.status)
			got, err := w.Weather(context.Background(), c.place)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v\nwant %q", got, err, c.want)
			}
		})
	}
}

func TestGetWeatherTool(t *testing.T) {
	tool := NewGetWeather(fakeOpenMeteo(t, seoulGeo, seoulForecast, 200))
	if !tool.DefaultOff || !tool.Reaches || !tool.Outside {
		t.Fatal("get_weather goes to the network: off by default, approved like web_search")
	}
	res, err := tool.Call(context.Background(), map[string]any{"place": "Seoul"})
	if err != nil || !strings.Contains(res.Text, "3.4 °C") {
		t.Fatalf("%q, %v", res.Text, err)
	}
	unreachable := NewGetWeather(OpenMeteo{GeocodingURL: "http://127.0.0.1:1/geo"})
	if _, err := unreachable.Call(context.Background(), map[string]any{"place": "Seoul"}); err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("unreachable server: %v", err)
	}
}
